"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const broker_1 = require("@relay/broker");
const contracts_1 = require("@relay/contracts");
const infra_1 = require("../../support/infra");
const logger_1 = require("../../support/logger");
/*
 * Issue 28 item 2: the route between the outputs deliverer and the `relay listen` sessions, on
 * the real RabbitMQ (docs/cli.md "How a delivery reaches its session").
 */
const { namespace } = (0, infra_1.testNamespace)('clisessions');
const { logger } = (0, logger_1.testLogger)('cli-sessions-test');
const connections = [];
async function connection() {
    const c = new broker_1.BrokerConnection({ url: infra_1.infra.rabbitmqUrl, logger, connectionName: 'cli-test', topology: { namespace, deliveryLimit: 5 } });
    await c.start();
    connections.push(c);
    return c;
}
const forward = (targetId, n = 1) => ({
    type: contracts_1.CLI_FORWARD_V1,
    event_id: `evt_${n}`,
    delivery_id: `dlv_${n}`,
    attempt: 1,
    target_id: targetId,
    endpoint_id: 'ep_1',
    headers: { 'content-type': 'text/plain' },
    body_base64: Buffer.from(`hello ${n}`).toString('base64'),
});
const ok = (status = 200) => ({ status, headers: {}, body: 'ok', duration_ms: 2 });
let forwarder;
let sessions;
beforeAll(async () => {
    forwarder = new broker_1.CliForwarder(await connection(), namespace, logger);
    await forwarder.start();
    sessions = await connection();
});
afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()));
    await (0, infra_1.deleteBrokerNamespace)(namespace);
});
function session(targetId, onForward, inFlight = 10) {
    return (0, broker_1.openCliSessionQueue)(sessions, { namespace, targetId, inFlight, maxWaiting: 100, logger, onForward, onLost: () => undefined });
}
describe('CLI sessions over the broker', () => {
    it('no session bound for the target: no_session at once, not a timeout', async () => {
        await expect(forwarder.forward(forward('tg_none'), 10_000)).resolves.toBe('no_session');
    });
    it('a session receives the forward and its answer is the outcome', async () => {
        const seen = [];
        const s = await session('tg_a', (f, answer) => {
            seen.push(f);
            answer(ok(201));
        });
        await expect(forwarder.forward(forward('tg_a'), 10_000)).resolves.toEqual(ok(201));
        expect(seen.map((f) => f.delivery_id)).toEqual(['dlv_1']);
        await s.close('test over');
    });
    it('a session that ends with forwards unanswered answers them as gone: retried at once, not after the wait', async () => {
        let got = 0;
        const s = await session('tg_b', () => void got++);
        const pending = forwarder.forward(forward('tg_b'), 60_000);
        await (0, infra_1.eventually)(async () => got === 1, 10_000, 'the forward at the session');
        await s.close('the CLI went away');
        await expect(pending).resolves.toBe('session_gone');
        // and the queue is gone with the session
        await expect(forwarder.forward(forward('tg_b', 2), 10_000)).resolves.toBe('no_session');
    });
    it('holds at most in_flight forwards per session; the rest wait in its queue', async () => {
        const held = [];
        const s = await session('tg_c', (_f, answer) => void held.push(() => answer(ok())), 2);
        const all = [1, 2, 3, 4].map((n) => forwarder.forward(forward('tg_c', n), 30_000));
        await (0, infra_1.eventually)(async () => held.length === 2, 10_000, 'two forwards held');
        await new Promise((r) => setTimeout(r, 300));
        expect(held.length).toBe(2);
        held.splice(0).forEach((a) => a());
        await (0, infra_1.eventually)(async () => held.length === 2, 10_000, 'the next two');
        held.splice(0).forEach((a) => a());
        await expect(Promise.all(all)).resolves.toEqual([ok(), ok(), ok(), ok()]);
        await s.close('done');
    });
    it('two sessions of one target both receive a forward; the first answer is the outcome', async () => {
        const got = [];
        const a = await session('tg_d', (_f, answer) => (got.push('a'), answer(ok(200))));
        const b = await session('tg_d', (_f, answer) => (got.push('b'), setTimeout(() => answer(ok(500)), 200)));
        await expect(forwarder.forward(forward('tg_d'), 10_000)).resolves.toEqual(ok(200));
        await (0, infra_1.eventually)(async () => got.length === 2, 10_000, 'both sessions');
        await a.close('done');
        await b.close('done');
    });
    it('nobody answers: timeout', async () => {
        const s = await session('tg_e', () => undefined);
        await expect(forwarder.forward(forward('tg_e'), 500)).resolves.toBe('timeout');
        await s.close('done');
    });
});
//# sourceMappingURL=cli-sessions.test.js.map