import type { TelegramConfig } from '../../../libs/targets/src/kinds/telegram';
import { startFakeTelegram } from '../../support/fake-telegram';
import type { FakeTelegram } from '../../support/fake-telegram';
import { chatSecrets, delivery, telegramKind, TELEGRAM_TOKEN } from './fixtures';

/*
 * The Telegram kind against a local HTTPS fake of the Bot API (test/support/fake-telegram.ts)
 * that enforces its documented answers: every attempt goes through Relay's sender with TLS
 * verified and the SSRF guard on, the real host pointed at loopback.
 */
let fake: FakeTelegram;
const CHAT = '-1001234567890';
const stored = (over: Partial<TelegramConfig> = {}): TelegramConfig => {
  const v = telegramKind.validateConfig({ bot_token: TELEGRAM_TOKEN, chat_id: CHAT, name: 'ops', ...over });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.value;
};

beforeAll(async () => {
  fake = await startFakeTelegram();
  fake.addBot(TELEGRAM_TOKEN, [CHAT, '42', '-1009', '@news_channel']);
});
afterAll(() => fake.close());
afterEach(() => fake.setRateLimit(null));

async function deliver(
  payload: unknown,
  config: TelegramConfig = stored(),
  contentType: string | null = 'application/json',
) {
  const outcome = await fake.send(telegramKind.buildRequest(config, delivery(payload, contentType, 'telegram')));
  return { result: telegramKind.classify(outcome), outcome, saved: fake.messages.at(-1) };
}

describe('Telegram target against the fake Bot API (HTTPS)', () => {
  it('sends the payload to the chat through the sealed token: 200 ok:true → success', async () => {
    expect(stored().bot_token).not.toContain(TELEGRAM_TOKEN);
    const { result, saved } = await deliver({ order: 7 });
    expect(result).toEqual({ result: 'success', status: 200 });
    expect(saved).toMatchObject({ chat_id: CHAT, visible: '{\n  "order": 7\n}' });
    expect(fake.requests.at(-1)!.path).toBe(`/bot${TELEGRAM_TOKEN}/sendMessage`);
  });

  it.each(['HTML', 'MarkdownV2'] as const)(
    '%s: the payload shows exactly as sent, whatever characters it holds',
    async (parse_mode) => {
      const tricky = { note: '<b>1.5 * (x_y) & [z]!</b> `tick` \\ end' };
      const { result, saved } = await deliver(tricky, stored({ parse_mode }));
      expect(result.result).toBe('success');
      expect(saved!.visible).toBe(JSON.stringify(tricky, null, 2));
      const templated = await deliver(
        tricky,
        stored({ parse_mode, template: parse_mode === 'HTML' ? '<b>Note</b>: {{note}}' : '*Note*: {{note}}' }),
      );
      expect(templated.result.result).toBe('success');
      expect(templated.saved!.visible).toBe(`Note: ${tricky.note}`);
    },
  );

  it('an empty payload (format None) is still a message, in every parse mode', async () => {
    for (const parse_mode of ['none', 'HTML', 'MarkdownV2'] as const) {
      const { result, saved } = await deliver(undefined, stored({ parse_mode }), null);
      expect(result.result).toBe('success');
      expect(saved!.visible).toBe('(empty payload)');
    }
  });

  it('4,096 characters: the fake refuses a longer text, the kind cuts it so it is accepted', async () => {
    const long = 'é<&'.repeat(3000);
    const raw = await fake.send({
      url: `https://api.telegram.org/bot${TELEGRAM_TOKEN}/sendMessage`,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ chat_id: CHAT, text: long })),
    });
    expect(telegramKind.classify(raw)).toMatchObject({
      result: 'permanent',
      status: 400,
      error: 'Telegram 400: Bad Request: message is too long',
      flagTarget: false,
    });
    for (const parse_mode of ['none', 'HTML', 'MarkdownV2'] as const) {
      const { result, saved } = await deliver(long, stored({ parse_mode }), 'text/plain');
      expect(result.result).toBe('success');
      expect(saved!.visible.length).toBeLessThanOrEqual(4096);
      expect(saved!.visible.endsWith('… (truncated)')).toBe(true);
    }
  });

  it('429 flood control → retry after parameters.retry_after', async () => {
    fake.setRateLimit({ limit: 1, windowSec: 30 });
    expect((await deliver({ n: 1 })).result.result).toBe('success');
    const { result } = await deliver({ n: 2 });
    expect(result).toMatchObject({ result: 'retry', status: 429 });
    expect(result.result === 'retry' && result.retryAfterMs).toBeGreaterThanOrEqual(29_000);
  });

  it('403 "bot was blocked by the user" → permanent and flags the target', async () => {
    fake.blockBy('42');
    expect((await deliver({ n: 1 }, stored({ chat_id: '42' }))).result).toEqual({
      result: 'permanent',
      status: 403,
      error: 'Telegram 403: Forbidden: bot was blocked by the user',
      flagTarget: true,
    });
  });

  it('a chat the bot does not know, a migrated group and a revoked token flag the target', async () => {
    expect((await deliver({}, stored({ chat_id: '777' }))).result).toMatchObject({
      result: 'permanent',
      status: 400,
      flagTarget: true,
    });
    fake.migrate('-1009', -1009876);
    expect((await deliver({}, stored({ chat_id: '-1009' }))).result).toMatchObject({
      result: 'permanent',
      flagTarget: true,
      error: expect.stringContaining('-1009876'),
    });
    const revoked = { ...stored(), bot_token: chatSecrets.encrypt('999:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA') };
    const r = await deliver({}, revoked);
    expect(r.result).toEqual({
      result: 'permanent',
      status: 401,
      error: 'Telegram 401: Unauthorized',
      flagTarget: true,
    });
  });

  it('a template whose own markup does not parse → permanent for that message, not flagged', async () => {
    const { result } = await deliver({ a: 1 }, stored({ parse_mode: 'HTML', template: '<b>{{a}}' }));
    expect(result).toMatchObject({ result: 'permanent', status: 400, flagTarget: false });
  });
});
