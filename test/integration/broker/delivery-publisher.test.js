"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const amqplib_1 = __importDefault(require("amqplib"));
const broker_1 = require("@relay/broker");
const contracts_1 = require("@relay/contracts");
const infra_1 = require("../../support/infra");
const logger_1 = require("../../support/logger");
/*
 * The one delivery publisher (libs/broker) that the gateway, the management API's resends and
 * bulk retries, the deliverers' retries and dead letters, and the redrive command all use:
 * where each kind of publish lands, with which message id, and what a broker failure becomes.
 */
const { namespace } = (0, infra_1.testNamespace)('dlvpub');
const names = (0, contracts_1.brokerNames)(namespace);
const { logger } = (0, logger_1.testLogger)('delivery-publisher-test');
const TIER_MS = 60_000;
const delivery = (id, attempt = 1) => ({
    type: contracts_1.DELIVERY_V1, event_id: 'evt_1', delivery_id: id, attempt, account_id: 'acc', endpoint_id: 'ep', target_id: 'tg', target_kind: 'webhook',
    received_at: '2030-01-01T00:00:00.000Z', request: { method: 'POST', source_ip: '127.0.0.1', headers: {}, query: '' }, payload: { content_type: null, body_base64: '' },
});
let broker;
let deliveries;
beforeAll(async () => {
    broker = new broker_1.BrokerConnection({ url: infra_1.infra.rabbitmqUrl, logger, connectionName: 'delivery-publisher-test', topology: { namespace, deliveryLimit: 5, retryDelaysMs: { webhook: [TIER_MS] } } });
    await broker.start();
    deliveries = new broker_1.DeliveryPublisher(new broker_1.ConfirmPublisher(broker, 5000), namespace);
});
afterAll(async () => {
    await broker.close();
    await (0, infra_1.deleteBrokerNamespace)(namespace);
});
/** Every message in `queue` now, taken off it (bounded: the test publishes a handful). */
async function take(queue) {
    const conn = await amqplib_1.default.connect(infra_1.infra.rabbitmqUrl);
    const ch = await conn.createChannel();
    const out = [];
    for (let i = 0; i < 100; i++) {
        const m = await ch.get(queue, { noAck: true });
        if (!m)
            break;
        out.push(m);
    }
    await conn.close();
    return out;
}
describe('DeliveryPublisher (real RabbitMQ)', () => {
    it('publish: each delivery to its channel’s work queue, confirmed, persistent, message id <delivery_id>.<attempt>', async () => {
        await deliveries.publish([
            { message: delivery('dlv_a'), channel: 'webhook' },
            { message: delivery('dlv_b', 3), channel: 'chat' },
        ]);
        const [webhook] = await take(names.deliveryQueue('webhook'));
        const [chat] = await take(names.deliveryQueue('chat'));
        expect(webhook.properties).toMatchObject({ messageId: 'dlv_a.1', type: contracts_1.DELIVERY_V1, deliveryMode: 2 });
        expect(chat.properties.messageId).toBe('dlv_b.3');
        expect((0, contracts_1.decodeMessage)(chat.content, [contracts_1.DELIVERY_V1])).toMatchObject({ delivery_id: 'dlv_b', attempt: 3 });
    });
    it('retry: to the tier’s TTL queue with its headers; tier 0 straight back to the work queue', async () => {
        await deliveries.retry(delivery('dlv_r', 2), 'webhook', TIER_MS, { 'x-relay-schedule-base': 1 });
        await deliveries.retry(delivery('dlv_now', 2), 'webhook', 0, { 'x-relay-schedule-base': 1 });
        const [tiered] = await take(names.retryQueue('webhook', TIER_MS));
        expect(tiered.properties.messageId).toBe('dlv_r.2');
        expect(tiered.properties.headers).toMatchObject({ 'x-relay-schedule-base': 1 });
        expect((await take(names.deliveryQueue('webhook'))).map((m) => m.properties.messageId)).toEqual(['dlv_now.2']);
    });
    it('deadLetter: to the channel’s dead-letter queue as <delivery_id>.<attempt>.dead, with the reason headers', async () => {
        await deliveries.deadLetter(delivery('dlv_d', 4), 'webhook', { 'x-relay-dead-reason': 'permanent' });
        const [dead] = await take(names.deadDeliveryQueue('webhook'));
        expect(dead.properties.messageId).toBe('dlv_d.4.dead');
        expect(dead.properties.headers).toMatchObject({ 'x-relay-dead-reason': 'permanent' });
    });
    it('a broker failure rejects with DeliveryQueueUnavailableError (code delivery_queue_unavailable), the broker’s reason as its cause', async () => {
        // no queue is bound for this tier: the mandatory publish comes back unroutable
        const err = await deliveries.retry(delivery('dlv_x'), 'webhook', 1234, {}).catch((e) => e);
        expect(err).toBeInstanceOf(broker_1.DeliveryQueueUnavailableError);
        expect(err.code).toBe('delivery_queue_unavailable');
        expect(err.cause).toBeInstanceOf(broker_1.BrokerUnavailableError);
        expect(err.cause.reason).toBe('unroutable');
    });
    it('a closed connection: every delivery of a publish rejects with the same error', async () => {
        const gone = new broker_1.BrokerConnection({ url: infra_1.infra.rabbitmqUrl, logger, connectionName: 'delivery-publisher-test-closed', topology: { namespace, deliveryLimit: 5 } });
        await gone.start();
        await gone.close();
        const closed = new broker_1.DeliveryPublisher(new broker_1.ConfirmPublisher(gone, 500), namespace);
        await expect(closed.publish([{ message: delivery('dlv_c'), channel: 'webhook' }])).rejects.toBeInstanceOf(broker_1.DeliveryQueueUnavailableError);
    });
});
//# sourceMappingURL=delivery-publisher.test.js.map