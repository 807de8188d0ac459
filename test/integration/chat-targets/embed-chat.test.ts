import { PassThrough } from 'node:stream';
import { PASS_THROUGH } from '@relay/transform';
import { createLogger } from '@relay/logging';
import type { ActivityAttemptV1 } from '@relay/contracts';
import type { TargetRecord } from '@relay/store';
import { handleDelivery } from '../../../services/deliverer/src/delivery/handle';
import { createRegistry } from '@relay/targets';
import type { OutboundRequest } from '@relay/targets';
import type { EmbedChatConfig } from '../../../libs/targets/src/kinds/embed_chat';
import { startFakeDiscord } from '../../support/fake-discord';
import type { FakeDiscord } from '../../support/fake-discord';
import { DISCORD_ID, DISCORD_TOKEN, DISCORD_URL, delivery, embedChatKind } from './fixtures';

const config: EmbedChatConfig = { url: DISCORD_URL, name: 'alerts' };
let fake: FakeDiscord;

beforeAll(async () => {
  fake = await startFakeDiscord({ webhooks: [{ id: DISCORD_ID, token: DISCORD_TOKEN }] });
});
afterAll(() => fake.close());
afterEach(() => fake.setRateLimit(null));

async function deliver(payload: unknown, contentType?: string | null, cfg: EmbedChatConfig = config) {
  const req = embedChatKind.buildRequest(cfg, delivery(payload, contentType));
  const outcome = await fake.send(req);
  return { result: embedChatKind.classify(outcome), saved: fake.messages.at(-1), last: fake.requests.at(-1)! };
}

/** A request exactly as given, for checking the fake itself refuses what Discord refuses. */
function raw(body: string | Buffer, url = `${DISCORD_URL}?wait=true`): OutboundRequest {
  return {
    url,
    headers: { 'content-type': 'application/json' },
    body: Buffer.isBuffer(body) ? body : Buffer.from(body),
  };
}

describe('Embed-style target against the fake Discord', () => {
  it('default JSON payload: delivered with ?wait=true, confirmed by 200 + the saved message', async () => {
    const { result, saved, last } = await deliver({ build: 42, ok: true });
    expect(result).toEqual({ result: 'success', status: 200 });
    expect(last.query.wait).toBe('true');
    expect((last.response as { id: string }).id).toMatch(/^\d+$/);
    expect(saved!.body.content).toBe('```json\n{\n  "build": 42,\n  "ok": true\n}\n```');
  });

  it('without ?wait=true Discord answers 204 (why Relay always adds it)', async () => {
    const out = await fake.send(raw(JSON.stringify({ content: 'x' }), DISCORD_URL));
    expect(out).toMatchObject({ response: { status: 204 } });
  });

  it('relayed @everyone and user mentions do not ping; the same text without allowed_mentions would', async () => {
    const { saved } = await deliver('@everyone <@123456> deploy failed', 'text/plain');
    expect(saved!.pinged).toEqual({ everyone: false, users: [], roles: [] });
    await fake.send(raw(JSON.stringify({ content: '@everyone <@123456> deploy failed' })));
    expect(fake.messages.at(-1)!.pinged).toEqual({ everyone: true, users: ['123456'], roles: [] });
  });

  it('a payload that sets allowed_mentions keeps its own (and pings what it allows)', async () => {
    const { saved } = await deliver({ content: '<@42> look', allowed_mentions: { parse: ['users'] } });
    expect(saved!.pinged.users).toEqual(['42']);
  });

  it('a payload with content and/or embeds is sent natively', async () => {
    const payload = {
      content: 'release',
      embeds: [{ title: 'v1.2', description: 'notes', fields: [{ name: 'by', value: 'ann' }] }],
      username: 'ci',
    };
    const { result, saved } = await deliver(payload);
    expect(result.result).toBe('success');
    expect(saved!.body).toEqual({ ...payload, allowed_mentions: { parse: [] } });
  });

  it.each<[string, unknown, Partial<EmbedChatConfig>, boolean]>([
    ['payload tts kept over destination', { content: 'x', tts: false }, { tts: true }, false],
    ['destination tts when the payload has none', { content: 'x' }, { tts: true }, true],
  ])('tts: %s', async (_n, payload, cfg, tts) => {
    const { saved } = await deliver(payload, 'application/json', { ...config, ...cfg });
    expect(saved!.body.tts).toBe(tts);
  });

  it('keeps thread_id on the request', async () => {
    const { result, saved } = await deliver({ content: 'in thread' }, 'application/json', {
      ...config,
      url: `${DISCORD_URL}?thread_id=555`,
    });
    expect(result.result).toBe('success');
    expect(saved!.threadId).toBe('555');
  });

  describe('platform limits: the fake refuses the raw message, the kind cuts it so it is accepted', () => {
    const big = 'x'.repeat(5000);
    it.each<[string, Record<string, unknown>, string]>([
      ['content over 2,000 characters', { content: big }, 'content'],
      ['more than 10 embeds', { embeds: Array.from({ length: 12 }, (_v, i) => ({ title: `e${i}` })) }, 'embeds'],
      [
        'embeds over 6,000 characters in total',
        { embeds: [{ description: 'a'.repeat(4000) }, { description: 'b'.repeat(4000) }] },
        'embeds',
      ],
      ['a title over 256', { embeds: [{ title: big }] }, 'embeds'],
      ['a description over 4,096', { embeds: [{ description: big }] }, 'embeds'],
      [
        'more than 25 fields',
        { embeds: [{ fields: Array.from({ length: 30 }, () => ({ name: 'n', value: 'v' })) }] },
        'embeds',
      ],
    ])('%s', async (_n, payload, errorKey) => {
      const refused = await fake.send(raw(JSON.stringify(payload)));
      expect(embedChatKind.classify(refused)).toMatchObject({
        result: 'permanent',
        status: 400,
        error: expect.stringContaining('50035'),
      });
      expect(fake.requests.at(-1)!.response).toMatchObject({
        code: 50035,
        message: 'Invalid Form Body',
        errors: { [errorKey]: expect.anything() },
      });
      const { result } = await deliver(payload);
      expect(result).toEqual({ result: 'success', status: 200 });
    });

    it('the default JSON content of a large payload is cut inside its code block', async () => {
      const { result, saved } = await deliver({ log: 'l'.repeat(10_000) });
      expect(result.result).toBe('success');
      const content = saved!.body.content as string;
      expect(content.length).toBeLessThanOrEqual(2000);
      expect(content.endsWith('… (truncated)\n```')).toBe(true);
    });
  });

  it.each<[string, OutboundRequest, number, number, boolean]>([
    ['invalid JSON → 400 50109, permanent', raw('{nope'), 400, 50109, false],
    ['empty message → 400 50006, permanent', raw(JSON.stringify({ content: '' })), 400, 50006, false],
    [
      'unknown webhook → 404 10015, permanent, target flagged',
      raw('{}', `https://discord.com/api/webhooks/999/${DISCORD_TOKEN}?wait=true`),
      404,
      10015,
      true,
    ],
    [
      'wrong token → 401 50027, permanent, target flagged',
      raw('{}', `https://discord.com/api/webhooks/${DISCORD_ID}/wrong?wait=true`),
      401,
      50027,
      true,
    ],
  ])('%s', async (_n, req, status, code, flagTarget) => {
    const out = await fake.send(req);
    expect(out).toMatchObject({ response: { status } });
    expect(JSON.parse((out as { response: { body: string } }).response.body)).toMatchObject({ code });
    expect(embedChatKind.classify(out)).toMatchObject({ result: 'permanent', status, flagTarget });
  });

  it('request too large → 413 40005, permanent', async () => {
    const small = await startFakeDiscord({ webhooks: [{ id: DISCORD_ID, token: DISCORD_TOKEN }], maxBodyBytes: 1000 });
    try {
      const out = await small.send(embedChatKind.buildRequest(config, delivery({ content: 'x'.repeat(1500) })));
      expect(embedChatKind.classify(out)).toMatchObject({
        result: 'permanent',
        status: 413,
        error: expect.stringContaining('40005'),
      });
    } finally {
      await small.close();
    }
  });

  it('429 → retry after the JSON retry_after; X-RateLimit-* headers on every answer', async () => {
    fake.setRateLimit({ limit: 1, windowSec: 1.5 });
    const first = await fake.send(embedChatKind.buildRequest(config, delivery({ n: 1 })));
    expect(first).toMatchObject({
      response: { status: 200, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-bucket': expect.any(String) } },
    });
    const second = await fake.send(embedChatKind.buildRequest(config, delivery({ n: 2 })));
    const body = JSON.parse((second as { response: { body: string } }).response.body) as {
      retry_after: number;
      global: boolean;
    };
    expect(body.global).toBe(false);
    const result = embedChatKind.classify(second);
    expect(result).toMatchObject({ result: 'retry', status: 429, retryAfterMs: Math.ceil(body.retry_after * 1000) });
    expect((result as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    expect((result as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(1500);
  });

  it('5xx → retry', async () => {
    fake.queueResponse({ status: 502, body: { message: 'Bad Gateway', code: 0 } });
    expect(
      embedChatKind.classify(await fake.send(embedChatKind.buildRequest(config, delivery({ a: 1 })))),
    ).toMatchObject({ result: 'retry', status: 502 });
  });

  it('through the one delivery path (handleDelivery): recorded outcome and log carry no token', async () => {
    const attempts: ActivityAttemptV1[] = [];
    const logged = new PassThrough();
    let logText = '';
    logged.on('data', (c: Buffer) => (logText += c.toString()));
    const target = (url: string): TargetRecord => ({
      id: 'tg-embed_chat',
      account_id: 'acc-chat',
      endpoint_id: 'ep-chat',
      kind: 'embed_chat',
      name: 'alerts',
      enabled: true,
      config: { url, name: 'alerts' },
      flagged: null,
      created_at: new Date(),
      updated_at: new Date(),
    });
    let current = target(DISCORD_URL);
    const deps = {
      targets: { find: async () => current },
      // no limits and no breaker: every delivery may go (the gate is tested in delivery/target-gate)
      gate: { admit: async () => ({ verdict: 'go' as const, lease: null }), settle: async () => undefined },
      registry: createRegistry([embedChatKind]),
      send: fake.send,
      recorder: { record: async (a: ActivityAttemptV1) => void attempts.push(a) },
      router: { retry: async () => undefined, deadLetter: async () => undefined },
      health: { flag: async () => true, permanentFailure: () => 1, reset: () => undefined },
      meter: {
        attempted: () => undefined,
        retryScheduled: () => undefined,
        deadLettered: () => undefined,
        targetFlagged: () => undefined,
        held: () => undefined,
        breakerTransition: () => undefined,
      },
      transform: PASS_THROUGH,
      policy: { tiersMs: [1000], jitterPct: 0, retryAfterMaxMs: 1000, flagAfterPermanentFailures: 0 },
      logger: createLogger({ service: 'test', level: 'info', stream: logged }),
      now: () => new Date(),
      random: () => 0,
    };
    await handleDelivery(delivery({ ok: 1 }), deps);
    current = target(`https://discord.com/api/webhooks/999/${DISCORD_TOKEN}`);
    await handleDelivery(delivery({ ok: 2 }), deps);
    expect(attempts.map((a) => [a.state, a.status_code, a.error])).toEqual([
      ['delivered', 200, null],
      ['failed', 404, 'Discord 404 10015 Unknown Webhook'],
    ]);
    await new Promise((r) => setImmediate(r));
    expect(JSON.stringify(attempts) + logText).not.toContain(DISCORD_TOKEN);
  });
});
