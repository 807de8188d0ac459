"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const contracts_1 = require("@relay/contracts");
const fake_discord_1 = require("../../support/fake-discord");
const fake_slack_1 = require("../../support/fake-slack");
const infra_1 = require("../../support/infra");
const fixtures_1 = require("../chat-targets/fixtures");
const harness_1 = require("./harness");
/*
 * Issue 9, item 4, on the real broker: a 10⁵-deep JSON payload used to make the chat
 * deliverer throw RangeError on every attempt — redelivered 21 times, dead-lettered by the
 * broker with no attempt recorded, the row left Pending. Now it is one recorded, permanent
 * failed attempt with a clear reason, dead-lettered once by Relay, and the queue moves on.
 */
let h;
let discord;
let slack;
beforeAll(async () => {
    discord = await (0, fake_discord_1.startFakeDiscord)({ webhooks: [{ id: fixtures_1.DISCORD_ID, token: fixtures_1.DISCORD_TOKEN }] });
    slack = await (0, fake_slack_1.startFakeSlack)({ hooks: [fixtures_1.SLACK_PATH] });
    const send = (req) => (new URL(req.url).hostname === 'hooks.slack.com' ? slack.send(req) : discord.send(req));
    h = await (0, harness_1.startHarness)('chatpoison', { channel: 'chat', kinds: [fixtures_1.embedChatKind, fixtures_1.blockChatKind], send });
});
afterAll(async () => {
    await h?.close();
    await discord?.close();
    await slack?.close();
});
const DEEP = '['.repeat(100_000) + ']'.repeat(100_000);
it.each([
    ['embed_chat', fixtures_1.DISCORD_URL, { name: 'alerts' }],
    ['block_chat', fixtures_1.SLACK_URL, { name: 'alerts', markup: true }],
])('%s: a 10⁵-deep JSON payload is one recorded permanent failure (PAYLOAD_TOO_DEEP), dead-lettered once, never redelivered', async (kind, url, config) => {
    const targetId = await h.addTarget({ kind, config: { url, ...config } });
    const sentBefore = discord.requests.length + slack.requests.length;
    const poison = (0, harness_1.deliveryFor)(targetId, kind, DEEP);
    await h.publish(poison);
    const [attempt] = await (0, infra_1.eventually)(async () => {
        const list = h.attempts.filter((a) => a.delivery_id === poison.delivery_id);
        return list.length > 0 ? list : undefined;
    }, 10000, 'the recorded attempt');
    expect(attempt).toMatchObject({ attempt: 1, state: 'failed', status_code: null, error: 'PAYLOAD_TOO_DEEP: the JSON payload is nested deeper than 256 levels; no chat message can be built from it' });
    const dead = await (0, infra_1.eventually)(async () => {
        const list = await h.deadLetters();
        return list.length > 0 ? list : undefined;
    }, 5000, 'the dead letter');
    expect(dead.map((d) => [d.delivery.delivery_id, d.headers['x-relay-dead-reason']])).toEqual([[poison.delivery_id, 'permanent']]);
    // the queue moves on: the next delivery to the same target goes out, and the poison one was
    // never taken again (one attempt, nothing sent for it)
    const next = (0, harness_1.deliveryFor)(targetId, kind, '{"text":"after","content":"after"}');
    await h.publish(next);
    await (0, infra_1.eventually)(async () => h.attempts.find((a) => a.delivery_id === next.delivery_id && a.state === 'delivered'), 10000, 'the next delivery');
    expect(h.attempts.filter((a) => a.delivery_id === poison.delivery_id)).toHaveLength(1);
    expect(discord.requests.length + slack.requests.length).toBe(sentBefore + 1);
    const queue = await h.inspect.checkQueue((0, contracts_1.brokerNames)(h.namespace).deliveryQueue('chat'));
    expect(queue.messageCount).toBe(0);
});
//# sourceMappingURL=chat-poison-payload.test.js.map