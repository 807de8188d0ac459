"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const amqplib_1 = __importDefault(require("amqplib"));
const activity_log_1 = require("@relay/activity-log");
const broker_1 = require("@relay/broker");
const contracts_1 = require("@relay/contracts");
const store_1 = require("@relay/store");
const consumer_1 = require("../../../services/activity-writer/src/transport/consumer");
const infra_1 = require("../../support/infra");
const logger_1 = require("../../support/logger");
const activity_messages_1 = require("../../support/activity-messages");
const fixtures_1 = require("../../../libs/activity-log/conformance/fixtures");
/**
 * Partitioned writing (docs/architecture.md "Partitioned writing") on the real broker and store:
 * records go to their account's partition queue, each partition queue has one active consumer,
 * several writers share the partitions, and a writer's partitions go to another when it stops.
 */
const ns = (0, infra_1.testNamespace)('actparts');
const names = (0, contracts_1.brokerNames)(ns.namespace);
const { logger } = (0, logger_1.testLogger)();
async function startWriter(label, balanceMs = 0) {
    const store = await (0, store_1.connectStore)(ns.mongodbUrl);
    const broker = new broker_1.BrokerConnection({ url: infra_1.infra.rabbitmqUrl, connectionName: `test writer ${label}`, logger, topology: { namespace: ns.namespace, deliveryLimit: 20 } });
    await broker.start();
    const inner = (0, activity_log_1.openActivityLog)(store.connection).writer({ holdMs: 100, maxHeld: 1000, batchSize: 1000, maxWaitMs: 20, payloadMessagesPerFlush: 16, keepPerMinute: 10, retentionMs: 30 * fixtures_1.DAY_MS });
    const accounts = new Set();
    const writer = {
        ...inner,
        write: (records) => {
            for (const r of records)
                accounts.add(r.account_id);
            return inner.write(records);
        },
    };
    const consumers = (0, consumer_1.createActivityConsumers)(broker, writer, (0, broker_1.createActivityPublisher)(new broker_1.ConfirmPublisher(broker, 5000), ns.namespace), { namespace: ns.namespace, prefetch: 64, logger, balanceMs });
    await consumers.start();
    return { store, broker, consumers, accounts };
}
async function stopWriter(w) {
    await w.consumers.stop(2000);
    await w.broker.close();
    await w.store.close();
}
let producer;
let publisher;
let reader;
const writers = [];
beforeAll(async () => {
    producer = new broker_1.BrokerConnection({ url: infra_1.infra.rabbitmqUrl, connectionName: 'test activity producer', logger, topology: { namespace: ns.namespace, deliveryLimit: 20 } });
    await producer.start();
    publisher = new broker_1.ConfirmPublisher(producer, 5000);
    reader = await (0, store_1.connectStore)(ns.mongodbUrl);
});
afterAll(async () => {
    for (const w of writers)
        await stopWriter(w).catch(() => undefined);
    await producer.close();
    await (0, infra_1.deleteBrokerNamespace)(ns.namespace);
    await reader.connection.dropDatabase();
    await reader.close();
});
/** accounts spread over every partition: the first account id found for each */
const ACCOUNTS = Array.from({ length: contracts_1.ACTIVITY_PARTITIONS }, (_, k) => {
    for (let i = 0; i < 10_000; i++)
        if ((0, contracts_1.activityPartitionOf)(`acc_p${i}`) === k)
            return `acc_p${i}`;
    throw new Error(`no account for partition ${k}`);
});
const events = (label, n) => Array.from({ length: n }, (_, i) => {
    const account = ACCOUNTS[i % ACCOUNTS.length];
    const id = (0, fixtures_1.eventId)(`${label}_${i}`);
    return { id, account, records: [(0, fixtures_1.request)(id, { account_id: account, endpoint_id: `ep_${account}`, target_count: 1 }), (0, fixtures_1.attempt)(id, 'tg_1', 1, 'delivered', { account_id: account, endpoint_id: `ep_${account}` })] };
});
describe('activity partitions on the real broker and store', () => {
    it('the publisher sends every record of a request to its account\'s partition queue, and nowhere else', async () => {
        const conn = await amqplib_1.default.connect(infra_1.infra.rabbitmqUrl);
        try {
            const ch = await conn.createChannel();
            // declared by the producer's topology; nobody consumes yet
            const activity = (0, broker_1.createActivityPublisher)(publisher, ns.namespace);
            const sent = events('routing', 16);
            await Promise.all(sent.flatMap((e) => e.records).map((r) => activity.publish(r)));
            // (a queue with a single active consumer serves no basic.get: consume it)
            const seen = new Map();
            const wrong = [];
            for (let k = 0; k < contracts_1.ACTIVITY_PARTITIONS; k++) {
                await ch.consume(names.activityPartitionQueue(k), (msg) => {
                    if (!msg)
                        return;
                    for (const r of (0, activity_messages_1.activityRecordsOf)(msg.content)) {
                        if ((0, contracts_1.activityPartitionOf)(r.account_id) !== k)
                            wrong.push(`${r.event_id} in p${k}`);
                        seen.set(r.event_id, (seen.get(r.event_id) ?? 0) + 1);
                    }
                    ch.ack(msg);
                });
            }
            await (0, infra_1.eventually)(async () => [...seen.values()].reduce((a, n) => a + n, 0) === 32, 10_000, 'every record consumed');
            expect(wrong).toEqual([]);
            expect(seen.size).toBe(16);
            expect([...seen.values()].every((n) => n === 2)).toBe(true);
            expect((await ch.checkQueue(names.activityQueue)).messageCount).toBe(0);
        }
        finally {
            await conn.close();
        }
    });
    it('two writers share the partitions, one writer per partition; when one stops, the other takes its partitions and every row is written once', async () => {
        // (no balancing here: which writer has which partition stays as the broker gave them)
        writers.push(await startWriter('a'));
        writers.push(await startWriter('b'));
        const [a, b] = writers;
        const activity = (0, broker_1.createActivityPublisher)(publisher, ns.namespace);
        const first = events('shared', 64);
        await Promise.all(first.flatMap((e) => e.records).map((r) => activity.publish(r)));
        for (const e of first)
            await (0, infra_1.eventually)(async () => (await (0, fixtures_1.row)(reader, e.id))?.status === 'completed', 15_000, `row ${e.id}`);
        // the broker gave each partition to one of them: no account was written by both
        expect([...a.accounts].filter((acc) => b.accounts.has(acc))).toEqual([]);
        expect(a.accounts.size + b.accounts.size).toBe(ACCOUNTS.length);
        // a stops: its partitions go to b
        await stopWriter(a);
        writers.shift();
        b.accounts.clear();
        const second = events('after_stop', 64);
        await Promise.all(second.flatMap((e) => e.records).map((r) => activity.publish(r)));
        for (const e of second)
            await (0, infra_1.eventually)(async () => (await (0, fixtures_1.row)(reader, e.id))?.status === 'completed', 15_000, `row ${e.id}`);
        expect(b.accounts.size).toBe(ACCOUNTS.length);
        for (const e of [...first, ...second])
            expect((await (0, fixtures_1.row)(reader, e.id)).deliveries).toHaveLength(1);
        // and every account's list shows its rows once
        const log = (0, activity_log_1.openActivityLog)(reader.connection);
        for (const account of ACCOUNTS) {
            const page = await log.list({ account, endpointId: null, fromMs: Date.now() - 3_600_000, toMs: Date.now() + 60_000, cursor: null, limit: 200, status: 'all', sourceIp: null, errorText: null, payload: null, responseStatus: null });
            const ids = page.rows.map((r) => r.event_id);
            expect(new Set(ids).size).toBe(ids.length);
            expect(ids.sort()).toEqual([...first, ...second].filter((e) => e.account === account).map((e) => e.id).sort());
        }
    });
    it('a writer started after another gets its share: the first gives partitions away while traffic flows, and every row is written once', async () => {
        for (const w of writers.splice(0))
            await stopWriter(w);
        const first = await startWriter('first', 300);
        writers.push(first);
        const activity = (0, broker_1.createActivityPublisher)(publisher, ns.namespace);
        // the first writer alone has every partition
        const warm = events('alone', 16);
        await Promise.all(warm.flatMap((e) => e.records).map((r) => activity.publish(r)));
        for (const e of warm)
            await (0, infra_1.eventually)(async () => (await (0, fixtures_1.row)(reader, e.id))?.status === 'completed', 15_000, `row ${e.id}`);
        const second = await startWriter('second', 300);
        writers.push(second);
        // steady traffic until the second writer writes some partitions (bounded in rounds and time)
        const sent = [];
        for (let round = 0; round < 100 && second.accounts.size === 0; round++) {
            const batch = events(`spread${round}`, 16);
            sent.push(...batch);
            await Promise.all(batch.flatMap((e) => e.records).map((r) => activity.publish(r)));
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(second.accounts.size).toBeGreaterThan(0);
        for (const e of sent)
            await (0, infra_1.eventually)(async () => (await (0, fixtures_1.row)(reader, e.id))?.status === 'completed', 15_000, `row ${e.id}`);
        for (const e of sent)
            expect((await (0, fixtures_1.row)(reader, e.id)).deliveries).toHaveLength(1);
        // after the spread, each writer is given its own partitions' records only
        first.accounts.clear();
        second.accounts.clear();
        const after = events('after_spread', 64);
        await Promise.all(after.flatMap((e) => e.records).map((r) => activity.publish(r)));
        for (const e of after)
            await (0, infra_1.eventually)(async () => (await (0, fixtures_1.row)(reader, e.id))?.status === 'completed', 15_000, `row ${e.id}`);
        expect(first.accounts.size).toBeGreaterThan(0);
        expect(second.accounts.size).toBeGreaterThan(0);
    });
});
//# sourceMappingURL=partitions.test.js.map