import { STANDARD_SCHEME, STANDARD_SIGNATURE_LIST } from '../recipes';
import type { PresetOracle, PresetSpec } from '../spec';

/**
 * Standard Webhooks (spec: id.timestamp.body, `whsec_` key, ±5 min) and the providers that send
 * it, under `webhook-*` headers or Svix's `svix-*` headers.
 */
function standard(
  label: string,
  docs: string,
  headerPrefix: 'webhook' | 'svix',
  where: string,
  oracle: PresetOracle = { kind: 'sdk', name: 'standardwebhooks' },
): PresetSpec {
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
  svix: standard(
    'Svix',
    'https://docs.svix.com/receiving/verifying-payloads/how-manual',
    'svix',
    'Svix App Portal → endpoint → Signing Secret',
  ),
  clerk: standard(
    'Clerk',
    'https://clerk.com/docs/webhooks/sync-data#verify-the-webhook',
    'svix',
    'Dashboard → Configure → Webhooks → endpoint → Signing Secret',
  ),
  resend: standard(
    'Resend',
    'https://resend.com/docs/dashboard/webhooks/verify-webhooks-requests',
    'svix',
    'Dashboard → Webhooks → webhook → Signing Secret',
  ),
  openai: standard(
    'OpenAI',
    'https://platform.openai.com/docs/guides/webhooks#verifying-webhook-signatures',
    'webhook',
    'Platform settings → Webhooks → endpoint → Signing secret (shown once)',
  ),
  replicate: standard(
    'Replicate',
    'https://replicate.com/docs/topics/webhooks/verify-webhook',
    'webhook',
    'GET /v1/webhooks/default/secret (Replicate API)',
  ),
  liveblocks: standard(
    'Liveblocks',
    'https://liveblocks.io/docs/platform/webhooks#Security-verification',
    'webhook',
    'Dashboard → project → Webhooks → endpoint → Signing secret',
  ),
  brex: standard(
    'Brex',
    'https://developer.brex.com/docs/webhooks/#verifying-webhooks',
    'webhook',
    'GET /v1/webhooks/secrets (Brex API)',
  ),
  incident_io: standard(
    'incident.io',
    'https://api-docs.incident.io/tag/Webhooks',
    'webhook',
    'Settings → Webhooks → endpoint → Signing secret',
  ),
  loops: standard(
    'Loops',
    'https://loops.so/docs/webhooks#verifying-webhooks',
    'webhook',
    'Settings → Webhooks → Signing secret',
  ),
  polar: {
    ...standard(
      'Polar',
      'https://docs.polar.sh/integrate/webhooks/delivery#verify-signature',
      'webhook',
      'Organization settings → Webhooks → endpoint → Secret',
    ),
    // Polar's SDK base64-encodes the secret before handing it to standardwebhooks: the key is the text itself.
    scheme: { ...STANDARD_SCHEME, key: 'text' as const },
    secret: { format: 'text', where: 'Organization settings → Webhooks → endpoint → Secret' },
  },
  render: standard(
    'Render',
    'https://render.com/docs/webhooks#verifying-webhook-signatures',
    'webhook',
    'Workspace → Integrations → Webhooks → webhook → Signing secret',
  ),
} satisfies Record<string, PresetSpec>;
