import { prefixed } from '../recipes';
import type { PresetSpec } from '../spec';

/** Chat, voice, SMS and meeting providers. */
export const MESSAGING_PRESETS = {
  slack: {
    label: 'Slack',
    docs: 'https://api.slack.com/authentication/verifying-requests-from-slack',
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'text', signed: [{ text: 'v0:' }, 'timestamp', { text: ':' }, 'body'], encoding: 'hex' },
    signature: { header: 'x-slack-signature', format: prefixed('v0=') },
    timestamp: { header: 'x-slack-request-timestamp', unit: 'seconds', toleranceSeconds: 300 },
    id: { bodyPath: 'event_id' },
    secret: { format: 'text', where: 'api.slack.com/apps → your app → Basic Information → Signing Secret' },
    oracle: { kind: 'documented' },
  },
  zoom: {
    label: 'Zoom',
    docs: 'https://developers.zoom.us/docs/api/webhooks/#verify-webhook-events',
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'text', signed: [{ text: 'v0:' }, 'timestamp', { text: ':' }, 'body'], encoding: 'hex' },
    signature: { header: 'x-zm-signature', format: prefixed('v0=') },
    timestamp: { header: 'x-zm-request-timestamp', unit: 'seconds', toleranceSeconds: 300 },
    secret: { format: 'text', where: 'Zoom App Marketplace → your app → Features → Secret Token' },
    oracle: { kind: 'documented' },
  },
  twilio: {
    label: 'Twilio',
    docs: 'https://www.twilio.com/docs/usage/webhooks/webhooks-security',
    scheme: { family: 'url_form', algorithm: 'sha1', encoding: 'base64', bodySha256Param: true },
    signature: { header: 'x-twilio-signature', format: { kind: 'plain' } },
    id: { header: 'i-twilio-idempotency-token' },
    secret: { format: 'text', where: 'Twilio Console → Account → API keys & tokens → Auth Token' },
    oracle: { kind: 'sdk', name: 'twilio' },
  },
  discord: {
    label: 'Discord',
    docs: 'https://discord.com/developers/docs/interactions/overview#setting-up-an-endpoint-validating-security-request-headers',
    scheme: { family: 'public_key', algorithm: 'ed25519', key: 'ed25519_hex', signed: ['timestamp', 'body'], encoding: 'hex' },
    signature: { header: 'x-signature-ed25519', format: { kind: 'plain' } },
    // Discord documents no replay window; set tolerance_seconds to enforce one.
    timestamp: { header: 'x-signature-timestamp', unit: 'seconds', toleranceSeconds: null },
    id: { bodyPath: 'id' },
    secret: { format: 'ed25519_public_key_hex', where: 'Developer Portal → your application → General Information → Public Key' },
    oracle: { kind: 'sdk', name: 'discord-interactions' },
  },
} satisfies Record<string, PresetSpec>;
