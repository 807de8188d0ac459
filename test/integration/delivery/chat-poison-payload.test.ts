import { brokerNames } from '@relay/contracts';
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

/*
 * On the real broker: a 10⁵-deep JSON payload used to make the chat
 * deliverer throw RangeError on every attempt — redelivered 21 times, dead-lettered by the
 * broker with no attempt recorded, the row left Pending. Now it is one recorded, permanent
 * failed attempt with a clear reason, dead-lettered once by Relay, and the queue moves on.
 */
let h: Harness;
let discord: FakeDiscord;
let slack: FakeSlack;

beforeAll(async () => {
  discord = await startFakeDiscord({ webhooks: [{ id: DISCORD_ID, token: DISCORD_TOKEN }] });
  slack = await startFakeSlack({ hooks: [SLACK_PATH] });
  const send = (req: OutboundRequest) =>
    new URL(req.url).hostname === 'hooks.slack.com' ? slack.send(req) : discord.send(req);
  h = await startHarness('chatpoison', { channel: 'chat', kinds: [embedChatKind, blockChatKind], send });
});
afterAll(async () => {
  await h?.close();
  await discord?.close();
  await slack?.close();
});

const DEEP = '['.repeat(100_000) + ']'.repeat(100_000);

it.each([
  ['embed_chat', DISCORD_URL, { name: 'alerts' }],
  ['block_chat', SLACK_URL, { name: 'alerts', markup: true }],
])(
  '%s: a 10⁵-deep JSON payload is one recorded permanent failure (PAYLOAD_TOO_DEEP), dead-lettered once, never redelivered',
  async (kind, url, config) => {
    const targetId = await h.addTarget({ kind, config: { url, ...config } });
    const sentBefore = discord.requests.length + slack.requests.length;
    const poison = deliveryFor(targetId, kind, DEEP);
    await h.publish(poison);
    const [attempt] = await eventually(
      async () => {
        const list = h.attempts.filter((a) => a.delivery_id === poison.delivery_id);
        return list.length > 0 ? list : undefined;
      },
      10000,
      'the recorded attempt',
    );
    expect(attempt).toMatchObject({
      attempt: 1,
      state: 'failed',
      status_code: null,
      error:
        'PAYLOAD_TOO_DEEP: the JSON payload is nested deeper than 256 levels; no chat message can be built from it',
    });
    const dead = await eventually(
      async () => {
        const list = await h.deadLetters();
        return list.length > 0 ? list : undefined;
      },
      5000,
      'the dead letter',
    );
    expect(dead.map((d) => [d.delivery.delivery_id, d.headers['x-relay-dead-reason']])).toEqual([
      [poison.delivery_id, 'permanent'],
    ]);

    // the queue moves on: the next delivery to the same target goes out, and the poison one was
    // never taken again (one attempt, nothing sent for it)
    const next = deliveryFor(targetId, kind, '{"text":"after","content":"after"}');
    await h.publish(next);
    await eventually(
      async () => h.attempts.find((a) => a.delivery_id === next.delivery_id && a.state === 'delivered'),
      10000,
      'the next delivery',
    );
    expect(h.attempts.filter((a) => a.delivery_id === poison.delivery_id)).toHaveLength(1);
    expect(discord.requests.length + slack.requests.length).toBe(sentBefore + 1);
    const queue = await h.inspect.checkQueue(brokerNames(h.namespace).deliveryQueue('chat'));
    expect(queue.messageCount).toBe(0);
  },
);
