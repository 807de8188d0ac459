"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.TEST_TIERS_MS = void 0;
exports.startHarness = startHarness;
exports.deliveryFor = deliveryFor;
const amqplib_1 = __importDefault(require("amqplib"));
const broker_1 = require("@relay/broker");
const cache_1 = require("@relay/cache");
const contracts_1 = require("@relay/contracts");
const store_1 = require("@relay/store");
const deliverer_1 = require("@relay/deliverer");
const prom_client_1 = require("prom-client");
const targets_1 = require("@relay/targets");
const infra_1 = require("../../support/infra");
const activity_messages_1 = require("../../support/activity-messages");
const logger_1 = require("../../support/logger");
const store_models_1 = require("../../support/store-models");
/** The short test tiers: the real broker delays, just quick. */
exports.TEST_TIERS_MS = [200, 500, 1_000];
let seq = 0;
/** One deliverer in this process, on the real RabbitMQ and FerretDB, under its own namespace. */
async function startHarness(label, opts) {
    const ns = (0, infra_1.testNamespace)(label);
    const names = (0, contracts_1.brokerNames)(ns.namespace);
    const { logger } = (0, logger_1.testLogger)();
    const store = await (0, store_1.connectStore)(ns.mongodbUrl);
    const broker = new broker_1.BrokerConnection({
        url: infra_1.infra.rabbitmqUrl,
        connectionName: `test ${label}`,
        logger,
        topology: { namespace: ns.namespace, deliveryLimit: 20, retryDelaysMs: { [opts.channel]: exports.TEST_TIERS_MS } },
    });
    await broker.start();
    const publisher = new broker_1.ConfirmPublisher(broker, 5000);
    const changes = (0, cache_1.connectChangeFeed)({ redisUrl: infra_1.infra.redisUrl, namespace: ns.namespace, checkIntervalMs: 100, sweepIntervalMs: 0, logger });
    const deliverer = (0, deliverer_1.createDeliverer)({
        channel: opts.channel,
        namespace: ns.namespace,
        broker,
        store,
        registry: (0, targets_1.createRegistry)(opts.kinds),
        send: opts.send,
        logger,
        prefetch: 8,
        targetCacheMax: 1000,
        changes,
        revalidation: { batchSize: 50, pauseMs: 0 },
        confirmTimeoutMs: 5000,
        retry: { tiersMs: exports.TEST_TIERS_MS, jitterPct: 0, retryAfterMaxMs: 1_000 },
        flagAfterPermanentFailures: opts.flagAfter ?? 3,
        metrics: new prom_client_1.Registry(),
    });
    let heard = 0;
    changes.feed.onChange((change) => (heard = change.seq));
    await changes.feed.start();
    await deliverer.start();
    const conn = await amqplib_1.default.connect(infra_1.infra.rabbitmqUrl);
    const inspect = await conn.createChannel();
    const attempts = [];
    for (const queue of names.activityPartitionQueues) {
        await inspect.consume(queue, (msg) => {
            if (!msg)
                return;
            attempts.push(...(0, activity_messages_1.activityRecordsOf)(msg.content));
            inspect.ack(msg);
        });
    }
    return {
        namespace: ns.namespace,
        mongodbUrl: ns.mongodbUrl,
        channel: opts.channel,
        store,
        broker,
        publisher,
        deliverer,
        inspect,
        attempts,
        async addTarget(t) {
            const id = `tg_${label}${++seq}`;
            const now = new Date();
            await (0, store_models_1.modelsOf)(store).targets.create({ _id: id, account_id: 'acc_it', endpoint_id: 'ep_it', name: id, enabled: true, flagged: null, created_at: now, updated_at: now, ...t });
            return id;
        },
        async updateTarget(targetId, set) {
            const before = await (0, store_models_1.modelsOf)(store).targets.findOneAndUpdate({ _id: targetId }, { $set: { ...set, updated_at: new Date() } }).lean();
            const seq = (await changes.publisher.announce({ scope: 'target', id: targetId, endpoint_id: before?.endpoint_id ?? 'ep_it' })) ?? Infinity;
            await (0, infra_1.eventually)(async () => heard >= seq, 5000, `announcement ${seq} heard`);
        },
        publish(d) {
            return publisher.publish(names.deliveriesExchange, opts.channel, (0, contracts_1.encodeMessage)(d), { messageId: `${d.delivery_id}.${d.attempt}`, type: d.type });
        },
        async deadLetters() {
            const out = [];
            for (let i = 0; i < 1000; i++) {
                const msg = await inspect.get(names.deadDeliveryQueue(opts.channel), { noAck: true });
                if (!msg)
                    break;
                out.push({ delivery: (0, contracts_1.decodeMessage)(msg.content, [contracts_1.DELIVERY_V1]), headers: msg.properties.headers ?? {} });
            }
            return out;
        },
        async close() {
            await deliverer.stop(2000);
            await conn.close().catch(() => undefined);
            await broker.close();
            await changes.close();
            await store.connection.dropDatabase().catch(() => undefined);
            await store.close();
            await (0, infra_1.deleteBrokerNamespace)(ns.namespace, exports.TEST_TIERS_MS);
        },
    };
}
function deliveryFor(targetId, kind, body = '{"n":1}') {
    const n = `${Date.now().toString(36)}${++seq}`;
    return {
        type: contracts_1.DELIVERY_V1,
        event_id: `evt_${n}`,
        delivery_id: `dlv_${n}`,
        attempt: 1,
        account_id: 'acc_it',
        endpoint_id: 'ep_it',
        target_id: targetId,
        target_kind: kind,
        received_at: new Date().toISOString(),
        request: { method: 'POST', source_ip: '198.51.100.7', headers: {}, query: '' },
        payload: { content_type: 'application/json', body_base64: Buffer.from(body).toString('base64') },
    };
}
//# sourceMappingURL=harness.js.map