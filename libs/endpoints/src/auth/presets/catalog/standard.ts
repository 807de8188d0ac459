import { STANDARD_SCHEME, STANDARD_SIGNATURE_LIST } from '../recipes';
import type { PresetOracle, PresetSpec } from '../spec';

/**
 * Standard Webhooks (spec: id.timestamp.body, `whsec_` key, ±5 min) and the providers that send
 * it, under `webhook-*` headers or Svix's `svix-*` headers.
 */
function standard(label: string, docs: string, headerPrefix: 'webhook' | 'svix', where: string, oracle: PresetOracle = { kind: 'sdk', name: 'standardwebhooks' }): PresetSpec {
  return {
    label,
    docs,
    scheme: STANDARD_SCHEME,
    signature: { header: `${headerPrefix}-signature`, format: STANDARD_SIGNATURE_LIST },
    timestamp: { header: `${headerPrefix}-timestamp`, unit: 'seconds', toleranceSeconds: 300 },
    id: { header: `${headerPrefix}-id` },
    secret: { format: 'whsec', where },
    oracle,
  };
}

export const STANDARD_PRESETS = {
  standard_webhooks: standard(
    'Standard Webhooks',
    'https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md',
    'webhook',
    'The sender\'s endpoint settings ("whsec_…" signing secret)',
  ),
  svix: standard('Svix', 'https://docs.svix.com/receiving/verifying-payloads/how-manual', 'svix', 'Svix App Portal → endpoint → Signing Secret'),
};
