import type { OutboundRequest } from '@relay/targets';
import { startFakeDiscord } from '../../support/fake-discord';
import type { FakeDiscord } from '../../support/fake-discord';
import { startFakeSlack } from '../../support/fake-slack';
import type { FakeSlack } from '../../support/fake-slack';
import { eventually } from '../../support/infra';
import {
  DISCORD_ID,
  DISCORD_TOKEN,
  DISCORD_URL,
  SLACK_PATH,
  SLACK_URL,
  blockChatKind,
  embedChatKind,
} from '../chat-targets/fixtures';
import { deliveryFor, startHarness } from './harness';
import type { Harness } from './harness';
import { modelsOf } from '../../support/store-models';

/*
 * The chat channel's retries on the real broker tiers, against the fake platforms:
 * embed-style 429 waits `retry_after`, 404 10015 flags the target; block-style 429 honours
 * Retry-After. Test tiers 200 ms / 500 ms / 1 s stand in for the fast default schedule.
 */
let h: Harness;
let discord: FakeDiscord;
let slack: FakeSlack;

beforeAll(async () => {
  discord = await startFakeDiscord({ webhooks: [{ id: DISCORD_ID, token: DISCORD_TOKEN }] });
  slack = await startFakeSlack({ hooks: [SLACK_PATH] });
  const send = (req: OutboundRequest) =>
    new URL(req.url).hostname === 'hooks.slack.com' ? slack.send(req) : discord.send(req);
  h = await startHarness('chatretry', { channel: 'chat', kinds: [embedChatKind, blockChatKind], send });
});
afterAll(async () => {
  await h?.close();
  await discord?.close();
  await slack?.close();
});

const attemptsOf = (deliveryId: string, n: number) =>
  eventually(
    async () => {
      const list = h.attempts.filter((a) => a.delivery_id === deliveryId).sort((a, b) => a.attempt - b.attempt);
      return list.length >= n ? list : undefined;
    },
    8000,
    `${n} attempts of ${deliveryId}`,
  );

describe('chat retries (docs/delivery.md, docs/targets-chat.md)', () => {
  it('embed-style 429 → waits retry_after (0.7 s → the 1 s tier), then delivers', async () => {
    const targetId = await h.addTarget({
      kind: 'embed_chat',
      config: { url: DISCORD_URL, name: 'alerts' },
      retry_schedule_ms: [200, 500],
    });
    discord.queueResponse({
      status: 429,
      body: { message: 'You are being rate limited.', retry_after: 0.7, global: false },
      headers: { 'Retry-After': '1' },
    });
    const d = deliveryFor(targetId, 'embed_chat', '{"content":"deploy finished"}');
    await h.publish(d);
    const [first, second] = await attemptsOf(d.delivery_id, 2);
    expect([first!.state, first!.status_code, second!.state]).toEqual(['retrying', 429, 'delivered']);
    // next_attempt_at = the end of the attempt + the 1 s tier
    const waited = Date.parse(first!.next_attempt_at!) - Date.parse(first!.attempted_at);
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThan(1500);
    expect(Date.parse(second!.attempted_at) - Date.parse(first!.attempted_at)).toBeGreaterThanOrEqual(700);
    expect(discord.messages.at(-1)?.body).toMatchObject({ content: 'deploy finished' });
  });

  it('embed-style 404 10015 unknown webhook → permanent, the target is flagged, later deliveries are not sent', async () => {
    const gone = `https://discord.com/api/webhooks/999/${DISCORD_TOKEN}`;
    const targetId = await h.addTarget({ kind: 'embed_chat', config: { url: gone, name: 'old' } });
    const before = discord.requests.length;
    await h.publish(deliveryFor(targetId, 'embed_chat'));
    const flagged = await eventually(
      async () => (await modelsOf(h.store).targets.findById(targetId).lean())?.flagged,
      5000,
      'the flag',
    );
    expect(flagged.reason).toBe('Discord 404 10015 Unknown Webhook');
    const later = deliveryFor(targetId, 'embed_chat');
    await h.publish(later);
    const [skipped] = await attemptsOf(later.delivery_id, 1);
    expect(skipped).toMatchObject({ state: 'failed', error: 'target flagged: Discord 404 10015 Unknown Webhook' });
    expect(discord.requests.length - before).toBe(1);
    expect((await h.deadLetters()).map((x) => x.headers['x-relay-dead-reason'])).toEqual(['permanent', 'permanent']);
  });

  it('block-style 429 honours Retry-After (1 s) over the 200 ms schedule', async () => {
    const targetId = await h.addTarget({
      kind: 'block_chat',
      config: { url: SLACK_URL, name: 'ops', markup: true },
      retry_schedule_ms: [200],
    });
    slack.queueResponse({ status: 429, body: 'rate_limited', headers: { 'Retry-After': '1' } });
    const d = deliveryFor(targetId, 'block_chat', '{"text":"hi"}');
    await h.publish(d);
    const [first, second] = await attemptsOf(d.delivery_id, 2);
    expect([first!.state, first!.status_code, second!.state]).toEqual(['retrying', 429, 'delivered']);
    expect(Date.parse(second!.attempted_at) - Date.parse(first!.attempted_at)).toBeGreaterThanOrEqual(1000);
  });

  it('5xx on every attempt → retried along the schedule, then dead-lettered as exhausted', async () => {
    const targetId = await h.addTarget({
      kind: 'block_chat',
      config: { url: SLACK_URL, name: 'ops', markup: true },
      retry_schedule_ms: [200, 200],
    });
    for (let i = 0; i < 3; i++) slack.queueResponse({ status: 500, body: 'rollup_error' });
    const d = deliveryFor(targetId, 'block_chat', '{"text":"hi"}');
    await h.publish(d);
    const list = await attemptsOf(d.delivery_id, 3);
    expect(list.map((a) => [a.attempt, a.state, a.error])).toEqual([
      [1, 'retrying', 'Slack 500 rollup_error'],
      [2, 'retrying', 'Slack 500 rollup_error'],
      [3, 'failed', 'Slack 500 rollup_error'],
    ]);
    const dead = await eventually(
      async () => {
        const got = await h.deadLetters();
        return got.length > 0 ? got : undefined;
      },
      5000,
      'the dead delivery',
    );
    expect(dead.map((x) => [x.delivery.delivery_id, x.headers['x-relay-dead-reason']])).toEqual([
      [d.delivery_id, 'exhausted'],
    ]);
  });
});

describe('sealed webhook URLs', () => {
  it.each([
    ['embed_chat', { url: DISCORD_URL, name: 'alerts' }, '{"content":"sealed"}'],
    ['block_chat', { url: SLACK_URL, name: 'ops' }, '{"text":"sealed"}'],
  ] as const)(
    '%s: a target saved with its URL sealed is delivered — the deliverer opens the URL per attempt',
    async (kind, input, body) => {
      const saved = (kind === 'embed_chat' ? embedChatKind : blockChatKind).validateConfig(input);
      if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
      expect((saved.value as { url: string }).url).toMatch(/^enc:v1:/);
      const targetId = await h.addTarget({ kind, config: { ...saved.value } });
      const d = deliveryFor(targetId, kind, body);
      await h.publish(d);
      const [only] = await attemptsOf(d.delivery_id, 1);
      expect(only).toMatchObject({ state: 'delivered' });
    },
  );
});
