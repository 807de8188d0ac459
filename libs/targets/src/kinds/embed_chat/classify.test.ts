import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import type { AttemptResult, SendOutcome } from '../../kind';
import { createEmbedChatKind } from './index';

const embedChatKind = createEmbedChatKind({ secrets: createSecretBox(`k1:${randomBytes(32).toString('base64')}`) });

const res = (status: number, body: unknown = '', headers: Record<string, string> = {}): SendOutcome => ({
  response: { status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) },
  durationMs: 3,
});

describe('Embed-style attempt classification (Discord responses)', () => {
  it.each<[string, SendOutcome, Partial<AttemptResult> & Record<string, unknown>]>([
    ['200 with ?wait=true message → success', res(200, { id: '1' }), { result: 'success', status: 200 }],
    ['204 → success', res(204), { result: 'success', status: 204 }],
    [
      '429 → retry after JSON retry_after (float seconds)',
      res(429, { message: 'You are being rate limited.', retry_after: 1.234, global: false }, { 'retry-after': '2' }),
      { result: 'retry', status: 429, retryAfterMs: 1234 },
    ],
    [
      '429 without JSON → retry after Retry-After',
      res(429, '<html>', { 'retry-after': '3' }),
      { result: 'retry', retryAfterMs: 3000 },
    ],
    [
      '429 with only X-RateLimit-Reset-After',
      res(429, '', { 'x-ratelimit-reset-after': '0.5' }),
      { result: 'retry', retryAfterMs: 500 },
    ],
    [
      '429 global',
      res(429, { message: 'x', retry_after: 2, global: true }),
      { result: 'retry', error: 'Discord rate limited (global)', retryAfterMs: 2000 },
    ],
    [
      '404 10015 unknown webhook → permanent, target flagged',
      res(404, { message: 'Unknown Webhook', code: 10015 }),
      { result: 'permanent', flagTarget: true, error: 'Discord 404 10015 Unknown Webhook' },
    ],
    [
      '404 other → permanent',
      res(404, { message: 'Unknown Channel', code: 10003 }),
      { result: 'permanent', flagTarget: false },
    ],
    [
      '401 invalid token → permanent, flagged',
      res(401, { message: 'Invalid Webhook Token', code: 50027 }),
      { result: 'permanent', flagTarget: true },
    ],
    [
      '403 → permanent, flagged',
      res(403, { message: 'Missing Permissions', code: 50013 }),
      { result: 'permanent', flagTarget: true },
    ],
    [
      '400 50035 → permanent, with the first field error',
      res(400, {
        message: 'Invalid Form Body',
        code: 50035,
        errors: {
          embeds: {
            0: { title: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 256 or fewer in length.' }] } },
          },
        },
      }),
      {
        result: 'permanent',
        flagTarget: false,
        error: 'Discord 400 50035 Invalid Form Body (embeds.0.title: Must be 256 or fewer in length.)',
      },
    ],
    [
      '400 50006 empty → permanent',
      res(400, { message: 'Cannot send an empty message', code: 50006 }),
      { result: 'permanent', flagTarget: false },
    ],
    [
      '400 50109 invalid JSON → permanent',
      res(400, { message: 'The request body contains invalid JSON.', code: 50109 }),
      { result: 'permanent' },
    ],
    [
      '413 40005 → permanent',
      res(413, { message: 'Request entity too large', code: 40005 }),
      { result: 'permanent', flagTarget: false },
    ],
    ['500 → retry', res(500, { message: 'Internal Server Error', code: 0 }), { result: 'retry', status: 500 }],
    ['502 HTML → retry', res(502, '<html>bad gateway</html>'), { result: 'retry', error: 'Discord HTTP 502' }],
    [
      'a 2xx with a body past the response limit → permanent, not delivered',
      {
        error: { code: 'RESPONSE_TOO_LARGE', message: 'HTTP 200 with a response body over 65536 bytes' },
        durationMs: 1,
      },
      { result: 'permanent', status: null, flagTarget: false, error: expect.stringMatching(/^response too large/) },
    ],
    [
      'a request Node refuses to send → permanent',
      { error: { code: 'ERR_INVALID_CHAR', message: 'Invalid character in header content' }, durationMs: 1 },
      { result: 'permanent', flagTarget: false },
    ],
    [
      'network error → retry',
      { error: { code: 'ETIMEDOUT', message: 'Timeout awaiting request' }, durationMs: 5000 },
      { result: 'retry', status: null, error: 'network error (ETIMEDOUT)' },
    ],
  ])('%s', (_n, outcome, expected) => {
    expect(embedChatKind.classify(outcome)).toMatchObject(expected);
  });

  it('error texts never carry the webhook URL or token', () => {
    const token = 'SECRETtoken123';
    const results = [
      embedChatKind.classify({
        error: { code: 'ECONNRESET', message: `request to https://discord.com/api/webhooks/1/${token} failed` },
        durationMs: 1,
      }),
      embedChatKind.classify(res(400, { message: `bad https://discord.com/api/webhooks/1/${token}`, code: 50035 })),
    ];
    for (const r of results) expect(JSON.stringify(r)).not.toContain(token);
  });
});
