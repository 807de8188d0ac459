import type { SendOutcome } from '../../kind';
import { classifyTelegram } from './classify';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}): SendOutcome => ({
  response: { status, headers, body: JSON.stringify(body) },
  durationMs: 1,
});
const failed = (error_code: number, description: string, parameters?: Record<string, unknown>) => ({
  ok: false,
  error_code,
  description,
  ...(parameters ? { parameters } : {}),
});

describe('Telegram answers, classified (docs/targets-chat.md "Telegram")', () => {
  it.each<[string, SendOutcome, Record<string, unknown>]>([
    ['200 ok:true → success', answer(200, { ok: true, result: { message_id: 1 } }), { result: 'success', status: 200 }],
    [
      '200 whose echo of a long message was cut at 4 KB → success',
      { response: { status: 200, headers: {}, body: '{"ok":true,"result":{"text":"xxx' }, durationMs: 1 },
      { result: 'success', status: 200 },
    ],
    [
      '200 ok:false → permanent',
      answer(200, { ok: false, description: 'odd' }),
      { result: 'permanent', flagTarget: false },
    ],
    [
      '429 → retry after parameters.retry_after',
      answer(429, failed(429, 'Too Many Requests: retry after 34', { retry_after: 34 })),
      { result: 'retry', status: 429, retryAfterMs: 34_000 },
    ],
    [
      '429 without parameters → the Retry-After header',
      answer(429, failed(429, 'Too Many Requests'), { 'retry-after': '3' }),
      { result: 'retry', retryAfterMs: 3_000 },
    ],
    ['502 → retry', answer(502, failed(502, 'Bad Gateway')), { result: 'retry', status: 502 }],
    [
      '403 bot was blocked → permanent, flagged',
      answer(403, failed(403, 'Forbidden: bot was blocked by the user')),
      { result: 'permanent', flagTarget: true, error: 'Telegram 403: Forbidden: bot was blocked by the user' },
    ],
    [
      '403 bot was kicked → permanent, flagged',
      answer(403, failed(403, 'Forbidden: bot was kicked from the group chat')),
      { result: 'permanent', flagTarget: true },
    ],
    [
      '401 → permanent, flagged (token revoked)',
      answer(401, failed(401, 'Unauthorized')),
      { result: 'permanent', flagTarget: true },
    ],
    [
      '404 → permanent, flagged (no such bot)',
      answer(404, failed(404, 'Not Found')),
      { result: 'permanent', flagTarget: true },
    ],
    [
      '400 chat not found → permanent, flagged',
      answer(400, failed(400, 'Bad Request: chat not found')),
      { result: 'permanent', flagTarget: true },
    ],
    [
      '400 migrated group → permanent, flagged, the new id named',
      answer(
        400,
        failed(400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: -1001234 }),
      ),
      { result: 'permanent', flagTarget: true, error: expect.stringContaining('-1001234') },
    ],
    [
      '400 cannot parse entities → permanent, not flagged (this message)',
      answer(400, failed(400, "Bad Request: can't parse entities")),
      { result: 'permanent', flagTarget: false },
    ],
    [
      '400 message too long → permanent, not flagged',
      answer(400, failed(400, 'Bad Request: message is too long')),
      { result: 'permanent', flagTarget: false },
    ],
  ])('%s', (_name, outcome, expected) => {
    expect(classifyTelegram(outcome)).toMatchObject(expected);
  });

  it('never stores anything shaped like a bot token', () => {
    const r = classifyTelegram(answer(400, failed(400, 'Bad Request: 123456789:AAEhBP0av28hRWZWvNzqxsFMjLAo3u1CQ4s')));
    expect(JSON.stringify(r)).not.toContain('AAEhBP0av28');
  });

  it('a refused connection retries, as for every chat kind', () => {
    expect(classifyTelegram({ error: { code: 'ECONNRESET', message: 'reset' }, durationMs: 1 })).toMatchObject({
      result: 'retry',
      status: null,
    });
  });
});
