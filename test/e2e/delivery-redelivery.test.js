"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const client_1 = require("@relay/client");
const node_http_1 = __importDefault(require("node:http"));
const contracts_1 = require("@relay/contracts");
const amqplib_1 = __importDefault(require("amqplib"));
const infra_1 = require("../support/infra");
const services_1 = require("../support/services");
const stack_1 = require("./stack");
/**
 * At-least-once (docs/delivery.md): the webhook-deliverer is SIGKILLed while its requests are
 * in flight at the receiver; the broker redelivers every unacked delivery to a fresh deliverer,
 * which sends it again with the same X-Relay-Delivery-Id and a higher X-Relay-Attempt.
 */
const EVENTS = 5;
const TIERS = '200,500';
/** Holds the first request of every delivery open (the deliverer is "mid-delivery"); answers later ones 200. */
class HoldingReceiver {
    seen = [];
    held = [];
    server = node_http_1.default.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
            const deliveryId = String(req.headers['x-relay-delivery-id']);
            const first = !this.seen.some((s) => s.deliveryId === deliveryId);
            this.seen.push({ deliveryId, eventId: String(req.headers['x-relay-event-id']), attempt: Number(req.headers['x-relay-attempt']) });
            if (first)
                this.held.push(res);
            else
                res.writeHead(200).end('ok');
        });
    });
    async start() {
        await new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
        return `http://127.0.0.1:${this.server.address().port}/hook`;
    }
    async close() {
        for (const res of this.held)
            res.destroy();
        this.server.closeAllConnections();
        await new Promise((resolve) => this.server.close(() => resolve()));
    }
}
let stack;
const receiver = new HoldingReceiver();
beforeAll(async () => {
    const url = await receiver.start();
    stack = await (0, stack_1.startStack)('redeliver', { overrides: { 'webhook-deliverer': { RETRY_TIERS_MS: TIERS, RETRY_AFTER_MAX_MS: '500', DELIVERY_TIMEOUT_MS: '30000' } } });
    const endpoint = await (0, client_1.must)(stack.client.POST('/v1/endpoints', { body: { name: 'kill' } }));
    await (0, client_1.must)(stack.client.POST('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId: endpoint.id } }, body: { kind: 'webhook', name: 'held', config: { url, enforce_https: false } } }));
    for (let i = 0; i < EVENTS; i++) {
        const res = await fetch(`${stack.services['ingest-gateway'].url}/relay/${endpoint.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"n":${i}}` });
        expect(res.status).toBe(202);
    }
});
afterAll(async () => {
    await stack?.stop();
    if (stack)
        await (0, infra_1.deleteBrokerNamespace)(stack.namespace, TIERS.split(',').map(Number));
    await receiver.close();
});
describe('a deliverer killed mid-delivery (SIGKILL)', () => {
    it('leads to redelivery with the same X-Relay-Delivery-Id and a higher X-Relay-Attempt; nothing is lost', async () => {
        await (0, infra_1.eventually)(async () => receiver.seen.length === EVENTS, 15000, `${EVENTS} deliveries in flight at the receiver`);
        const first = [...receiver.seen];
        expect(first.every((s) => s.attempt === 1)).toBe(true);
        expect(new Set(first.map((s) => s.deliveryId)).size).toBe(EVENTS);
        const killed = stack.services['webhook-deliverer'];
        killed.process.kill('SIGKILL');
        await (0, infra_1.eventually)(async () => killed.process.signalCode === 'SIGKILL', 5000, 'the deliverer to die');
        stack.services['webhook-deliverer'] = await (0, services_1.startService)('webhook-deliverer', { ...stack.env, RETRY_TIERS_MS: TIERS, RETRY_AFTER_MAX_MS: '500' });
        await (0, infra_1.eventually)(async () => receiver.seen.length >= EVENTS * 2, 20000, 'every delivery to arrive again');
        for (const { deliveryId, eventId } of first) {
            const again = receiver.seen.filter((s) => s.deliveryId === deliveryId && s.attempt > 1);
            expect(again.length).toBeGreaterThanOrEqual(1);
            expect(again[0]).toEqual({ deliveryId, eventId, attempt: 2 });
        }
        // every request's activity row ends Completed, with the redelivered attempt recorded as delivered
        for (const { eventId, deliveryId } of first) {
            const row = await (0, infra_1.eventually)(async () => {
                const res = await (0, client_1.must)(stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } }));
                return res.status === 'completed' ? res : undefined;
            }, 15000, `activity row ${eventId} completed`);
            const delivery = row.deliveries.find((d) => d.delivery_id === deliveryId);
            expect(delivery?.attempts.at(-1)).toMatchObject({ attempt: 2, state: 'delivered', status_code: 200 });
        }
        // nothing left behind: the work queue and the dead-letter queue are empty
        const conn = await amqplib_1.default.connect(infra_1.infra.rabbitmqUrl);
        try {
            const ch = await conn.createChannel();
            const names = (0, contracts_1.brokerNames)(stack.namespace);
            expect((await ch.checkQueue(names.deliveryQueue('webhook'))).messageCount).toBe(0);
            expect((await ch.checkQueue(names.deadDeliveryQueue('webhook'))).messageCount).toBe(0);
        }
        finally {
            await conn.close();
        }
    });
});
//# sourceMappingURL=delivery-redelivery.test.js.map