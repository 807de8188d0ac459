import { signatureHeaderNames } from './headers';
import type { InboundAuthSetting } from './types';

// Spec "Forwarded request" rule 5: the inbound API key header, the HMAC signature header and the
// timestamp header of the HMAC preset are never forwarded.
test.each<[string, InboundAuthSetting, string[]]>([
  ['NONE: nothing', { type: 'NONE' }, []],
  ['BASIC: authorization', { type: 'BASIC', credentials: [{ username: 'u', password: 'p' }] }, ['authorization']],
  ['BEARER: authorization', { type: 'BEARER', tokens: ['t'] }, ['authorization']],
  ['API_KEY: the configured header, lower-cased', { type: 'API_KEY', header: 'X-API-Key', keys: ['k'] }, ['x-api-key']],
  [
    'HMAC slack: signature and the chat-service timestamp header',
    { type: 'HMAC', preset: 'slack', secrets: ['s'] },
    ['x-slack-signature', 'x-slack-request-timestamp'],
  ],
  [
    'HMAC github: the SHA-256 and the legacy SHA-1 signature headers',
    { type: 'HMAC', preset: 'github', secrets: ['s'] },
    ['x-hub-signature-256', 'x-hub-signature'],
  ],
  [
    'HMAC stripe: stripe-signature (timestamp inside)',
    { type: 'HMAC', preset: 'stripe', secrets: ['s'] },
    ['stripe-signature'],
  ],
  [
    'HMAC standard_webhooks: signature and timestamp, not webhook-id',
    { type: 'HMAC', preset: 'standard_webhooks', secrets: ['s'] },
    ['webhook-signature', 'webhook-timestamp'],
  ],
  [
    'HMAC svix: svix-signature and svix-timestamp',
    { type: 'HMAC', preset: 'svix', secrets: ['s'] },
    ['svix-signature', 'svix-timestamp'],
  ],
  ['HMAC zoom', { type: 'HMAC', preset: 'zoom', secrets: ['s'] }, ['x-zm-signature', 'x-zm-request-timestamp']],
  ['HMAC linear', { type: 'HMAC', preset: 'linear', secrets: ['s'] }, ['linear-signature', 'linear-timestamp']],
  [
    'HMAC discord',
    { type: 'HMAC', preset: 'discord', secrets: ['s'] },
    ['x-signature-ed25519', 'x-signature-timestamp'],
  ],
  ['HMAC gitlab: the token header', { type: 'HMAC', preset: 'gitlab', secrets: ['s'] }, ['x-gitlab-token']],
  ['HMAC twilio', { type: 'HMAC', preset: 'twilio', secrets: ['s'] }, ['x-twilio-signature']],
  ['HMAC shopify', { type: 'HMAC', preset: 'shopify', secrets: ['s'] }, ['x-shopify-hmac-sha256']],
  [
    'HMAC square: current and legacy signature headers',
    { type: 'HMAC', preset: 'square', secrets: ['s'] },
    ['x-square-hmacsha256-signature', 'x-square-signature'],
  ],
  ['HMAC paddle', { type: 'HMAC', preset: 'paddle', secrets: ['s'] }, ['paddle-signature']],
  [
    'HMAC custom: the signature and timestamp headers, lower-cased',
    {
      type: 'HMAC',
      preset: 'custom',
      secrets: ['s'],
      custom: {
        algorithm: 'sha256',
        header: 'X-Sig',
        encoding: 'hex',
        template: '{{id}}{{timestamp}}{{body}}',
        timestamp_header: 'X-Ts',
        id_header: 'X-Id',
      },
    },
    ['x-sig', 'x-ts'],
  ],
])('signatureHeaderNames, %s', (_rule, setting, expected) => {
  expect(signatureHeaderNames(setting)).toEqual(expected);
});
