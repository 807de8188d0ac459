import { PLAIN } from '../recipes';
import type { PresetSpec } from '../spec';

/** Project management, docs and collaboration tools. */
export const PRODUCTIVITY_PRESETS = {
  linear: {
    label: 'Linear',
    docs: 'https://linear.app/developers/webhooks#securing-webhooks',
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'text', signed: ['body'], encoding: 'hex' },
    signature: { header: 'linear-signature', format: PLAIN },
    // The MAC covers no timestamp header, so the signed body's webhookTimestamp is checked too.
    timestamp: { header: 'linear-timestamp', bodyField: 'webhookTimestamp', unit: 'milliseconds', toleranceSeconds: 60 },
    id: { header: 'linear-delivery' },
    secret: { format: 'text', where: 'Linear → Settings → API → Webhooks → webhook → Signing secret' },
    oracle: { kind: 'documented' },
  },
} satisfies Record<string, PresetSpec>;
