import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import type { AttemptResult, SendOutcome } from '../../kind';
import { createBlockChatKind } from './index';

const blockChatKind = createBlockChatKind({ secrets: createSecretBox(`k1:${randomBytes(32).toString('base64')}`) });

const res = (status: number, body = '', headers: Record<string, string> = {}): SendOutcome => ({
  response: { status, headers, body },
  durationMs: 2,
});

describe('Block-style attempt classification (Slack plain-text responses)', () => {
  it.each<[string, SendOutcome, Partial<AttemptResult> & Record<string, unknown>]>([
    ['200 ok → success', res(200, 'ok'), { result: 'success', status: 200 }],
    [
      '400 invalid_payload → permanent',
      res(400, 'invalid_payload'),
      { result: 'permanent', flagTarget: false, error: 'Slack 400 invalid_payload' },
    ],
    ['400 no_text → permanent', res(400, 'no_text'), { result: 'permanent', flagTarget: false }],
    ['400 invalid_blocks → permanent', res(400, 'invalid_blocks'), { result: 'permanent', flagTarget: false }],
    [
      '400 too_many_attachments → permanent',
      res(400, 'too_many_attachments'),
      { result: 'permanent', flagTarget: false },
    ],
    [
      '403 action_prohibited → permanent, target flagged',
      res(403, 'action_prohibited'),
      { result: 'permanent', flagTarget: true },
    ],
    [
      '403 invalid_token → permanent, flagged',
      res(403, 'invalid_token'),
      { result: 'permanent', flagTarget: true, error: 'Slack 403 invalid_token' },
    ],
    [
      '404 channel_not_found → permanent, flagged',
      res(404, 'channel_not_found'),
      { result: 'permanent', flagTarget: true },
    ],
    ['404 no_service → permanent, flagged', res(404, 'no_service'), { result: 'permanent', flagTarget: true }],
    [
      '410 channel_is_archived → permanent, flagged',
      res(410, 'channel_is_archived'),
      { result: 'permanent', flagTarget: true },
    ],
    [
      '500 rollup_error → retry',
      res(500, 'rollup_error'),
      { result: 'retry', status: 500, error: 'Slack 500 rollup_error' },
    ],
    ['503 HTML page → retry', res(503, '<html>down</html>'), { result: 'retry', error: 'Slack 503' }],
    [
      '429 → retry honouring Retry-After seconds',
      res(429, 'rate_limited', { 'retry-after': '30' }),
      { result: 'retry', status: 429, retryAfterMs: 30_000 },
    ],
    ['429 without Retry-After → retry on the schedule', res(429, ''), { result: 'retry', retryAfterMs: undefined }],
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
      { error: { code: 'ECONNRESET', message: 'socket hang up' }, durationMs: 1 },
      { result: 'retry', status: null, error: 'network error (ECONNRESET)' },
    ],
  ])('%s', (_n, outcome, expected) => {
    expect(blockChatKind.classify(outcome)).toMatchObject(expected);
  });

  it('error texts never carry the webhook URL or secret', () => {
    const secret = 'XXXXSECRETXXXX';
    const r = blockChatKind.classify({
      error: { code: 'ENOTFOUND', message: `https://hooks.slack.com/services/T1/B1/${secret}` },
      durationMs: 1,
    });
    const s = blockChatKind.classify(res(400, `https://hooks.slack.com/services/T1/B1/${secret}`));
    expect(JSON.stringify([r, s])).not.toContain(secret);
  });
});
