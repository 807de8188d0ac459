"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const amqplib_1 = __importDefault(require("amqplib"));
const broker_1 = require("@relay/broker");
const contracts_1 = require("@relay/contracts");
const store_1 = require("@relay/store");
const activity_log_1 = require("@relay/activity-log");
const consumer_1 = require("../../../services/activity-writer/src/transport/consumer");
const infra_1 = require("../../support/infra");
const logger_1 = require("../../support/logger");
const fixtures_1 = require("../../../libs/activity-log/conformance/fixtures");
const ns = (0, infra_1.testNamespace)('actconsumer');
const names = (0, contracts_1.brokerNames)(ns.namespace);
const { logger } = (0, logger_1.testLogger)();
let store;
let broker;
let publisher;
let consumer;
beforeAll(async () => {
    store = await (0, store_1.connectStore)(ns.mongodbUrl);
    broker = new broker_1.BrokerConnection({ url: infra_1.infra.rabbitmqUrl, connectionName: 'test activity consumer', logger, topology: { namespace: ns.namespace, deliveryLimit: 20 } });
    await broker.start();
    publisher = new broker_1.ConfirmPublisher(broker, 5000);
    const writer = (0, activity_log_1.openActivityLog)(store.connection).writer({ holdMs: 200, maxHeld: 1000, batchSize: 1000, maxWaitMs: 20, payloadMessagesPerFlush: 16, keepPerMinute: 10, retentionMs: 30 * 86_400_000 });
    consumer = (0, consumer_1.createActivityConsumers)(broker, writer, (0, broker_1.createActivityPublisher)(publisher, ns.namespace), { namespace: ns.namespace, prefetch: 50, logger, balanceMs: 0 });
    await consumer.start();
});
afterAll(async () => {
    await consumer.stop(2000);
    await broker.close();
    await (0, infra_1.deleteBrokerNamespace)(ns.namespace);
    await store.connection.dropDatabase();
    await store.close();
});
async function deadLettered() {
    const conn = await amqplib_1.default.connect(infra_1.infra.rabbitmqUrl);
    try {
        const ch = await conn.createChannel();
        return (await ch.checkQueue(names.deadActivityQueue)).messageCount;
    }
    finally {
        await conn.close();
    }
}
describe('activity-writer consuming the activity queue (real RabbitMQ and store)', () => {
    it('writes every record of a batch message (relay.activity.batch.v1) as its own row, requests and attempts merged', async () => {
        const activity = (0, broker_1.createActivityPublisher)(publisher, ns.namespace);
        const ids = ['b1', 'b2', 'b3'].map((l) => (0, fixtures_1.eventId)(l));
        await Promise.all(ids.flatMap((id) => [(0, fixtures_1.request)(id, { target_count: 1 }), (0, fixtures_1.attempt)(id, 'tg_1', 1, 'delivered')]).map((r) => activity.publish(r)));
        for (const id of ids)
            await (0, infra_1.eventually)(async () => (await (0, fixtures_1.row)(store, id))?.status === 'completed', 10_000, `row ${id}`);
    });
    it('moves what producers of before partitions left in the old activity queue to the partitions, and writes it', async () => {
        const id = (0, fixtures_1.eventId)('old_queue');
        const body = Buffer.from(JSON.stringify({ type: contracts_1.ACTIVITY_BATCH_V1, records: [(0, fixtures_1.request)(id, { target_count: 1 }), (0, fixtures_1.attempt)(id, 'tg_1', 1, 'delivered')] }));
        await publisher.publish(names.activityExchange, names.activityRoutingKey, body, { messageId: 'old', type: contracts_1.ACTIVITY_BATCH_V1 });
        await (0, infra_1.eventually)(async () => (await (0, fixtures_1.row)(store, id))?.status === 'completed', 10_000, 'row from the old queue');
    });
    it('a broken batch on a partition queue is dead-lettered into the activity dead letters', async () => {
        const before = await deadLettered();
        const id = (0, fixtures_1.eventId)('bad_partition');
        const broken = Buffer.from(JSON.stringify({ type: contracts_1.ACTIVITY_BATCH_V1, records: [{ ...(0, fixtures_1.request)(id), outcome: 'MADE_UP' }] }));
        await publisher.publish(names.activityExchange, names.activityPartitionRoutingKey(3), broken, { messageId: 'broken-p3', type: contracts_1.ACTIVITY_BATCH_V1 });
        await (0, infra_1.eventually)(async () => (await deadLettered()) === before + 1, 10_000, 'dead-lettered partition batch');
    });
    it('still reads single-record messages (what producers sent before batching)', async () => {
        const id = (0, fixtures_1.eventId)('single');
        await publisher.publish(names.activityExchange, names.activityRoutingKey, (0, contracts_1.encodeMessage)((0, fixtures_1.request)(id, { outcome: 'AUTH_FAILED', reason: 'bad token', target_count: 0 })), { messageId: `${id}.request`, type: 'relay.activity.request.v1' });
        const written = await (0, infra_1.eventually)(async () => (0, fixtures_1.row)(store, id), 10_000, 'single-record row');
        expect(written).toMatchObject({ outcome: 'AUTH_FAILED', status: 'errors' });
    });
    it('a batch delivered twice (a redelivery) leaves one row per request', async () => {
        const id = (0, fixtures_1.eventId)('twice');
        const body = Buffer.from(JSON.stringify({ type: contracts_1.ACTIVITY_BATCH_V1, records: [(0, fixtures_1.request)(id, { target_count: 1 }), (0, fixtures_1.attempt)(id, 'tg_1', 1, 'delivered')] }));
        for (const messageId of ['m1', 'm2'])
            await publisher.publish(names.activityExchange, names.activityRoutingKey, body, { messageId, type: contracts_1.ACTIVITY_BATCH_V1 });
        await (0, infra_1.eventually)(async () => (await (0, fixtures_1.row)(store, id))?.status === 'completed', 10_000, 'row');
        expect((await (0, fixtures_1.row)(store, id)).deliveries).toHaveLength(1);
    });
    it('a batch that breaks its contract is dead-lettered at once; a producer never sends one (each record is checked alone)', async () => {
        const before = await deadLettered();
        const id = (0, fixtures_1.eventId)('bad');
        const broken = Buffer.from(JSON.stringify({ type: contracts_1.ACTIVITY_BATCH_V1, records: [(0, fixtures_1.request)(id), { ...(0, fixtures_1.attempt)(id, 'tg_1', 1, 'delivered'), state: 'made_up' }] }));
        await publisher.publish(names.activityExchange, names.activityRoutingKey, broken, { messageId: 'broken', type: contracts_1.ACTIVITY_BATCH_V1 });
        await (0, infra_1.eventually)(async () => (await deadLettered()) === before + 1, 10_000, 'dead-lettered batch');
        const activity = (0, broker_1.createActivityPublisher)(publisher, ns.namespace);
        await expect(activity.publish({ ...(0, fixtures_1.attempt)(id, 'tg_1', 1, 'delivered'), state: 'made_up' })).rejects.toThrow(/state|allowed/);
    });
});
//# sourceMappingURL=activity-consumer.test.js.map