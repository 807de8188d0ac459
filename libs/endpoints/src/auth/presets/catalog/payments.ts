import { PLAIN, stripeLike } from '../recipes';
import type { PresetSpec } from '../spec';

/** Payments, billing and finance providers. */
export const PAYMENT_PRESETS = {
  stripe: {
    label: 'Stripe',
    docs: 'https://docs.stripe.com/webhooks#verify-manually',
    // Only v1 counts: v0 is a test-mode scheme; several v1 appear while a secret is rolled.
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'text', signed: ['timestamp', { text: '.' }, 'body'], encoding: 'hex' },
    signature: { header: 'stripe-signature', format: stripeLike() },
    timestamp: { unit: 'seconds', toleranceSeconds: 300 },
    id: { bodyPath: 'id' },
    secret: { format: 'text', where: 'Dashboard → Developers → Webhooks → endpoint → Signing secret ("whsec_…", used as text)' },
    oracle: { kind: 'sdk', name: 'stripe' },
  },
  paddle: {
    label: 'Paddle',
    docs: 'https://developer.paddle.com/webhooks/signature-verification',
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'text', signed: ['timestamp', { text: ':' }, 'body'], encoding: 'hex' },
    signature: { header: 'paddle-signature', format: stripeLike('h1', 'ts', ';') },
    // Paddle's SDK allows 5 s; a sender with clock skew can raise tolerance_seconds.
    timestamp: { unit: 'seconds', toleranceSeconds: 5 },
    id: { bodyPath: 'notification_id' },
    secret: { format: 'text', where: 'Paddle → Developer tools → Notifications → destination → Secret key' },
    oracle: { kind: 'sdk', name: '@paddle/paddle-node-sdk' },
  },
  square: {
    label: 'Square',
    docs: 'https://developer.squareup.com/docs/webhooks/step3validate',
    scheme: { family: 'hmac', algorithm: 'sha256', key: 'text', signed: ['url', 'body'], encoding: 'base64', urlPortVariants: true },
    signature: { header: 'x-square-hmacsha256-signature', format: PLAIN },
    id: { bodyPath: 'event_id' },
    // Legacy SHA-1 signature Square may still send: not accepted, never forwarded.
    extraCredentialHeaders: ['x-square-signature'],
    secret: { format: 'text', where: 'Developer Dashboard → Webhooks → Subscriptions → Signature key' },
    oracle: { kind: 'documented' },
  },
} satisfies Record<string, PresetSpec>;
