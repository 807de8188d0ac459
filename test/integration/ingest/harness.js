"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.IngestHarness = void 0;
const node_crypto_1 = require("node:crypto");
const amqplib_1 = __importDefault(require("amqplib"));
const ioredis_1 = require("ioredis");
const broker_1 = require("@relay/broker");
const cache_1 = require("@relay/cache");
const contracts_1 = require("@relay/contracts");
const secrets_1 = require("@relay/secrets");
const store_1 = require("@relay/store");
const targets_1 = require("@relay/targets");
const activity_recorder_1 = require("../../../services/ingest-gateway/src/adapters/activity-recorder");
const activity_spool_1 = require("../../../services/ingest-gateway/src/adapters/activity-spool");
const captcha_verifier_1 = require("../../../services/ingest-gateway/src/adapters/captcha-verifier");
const endpoint_cache_1 = require("../../../services/ingest-gateway/src/adapters/endpoint-cache");
const endpoint_loader_1 = require("../../../services/ingest-gateway/src/adapters/endpoint-loader");
const event_publisher_1 = require("../../../services/ingest-gateway/src/adapters/event-publisher");
const idempotency_store_1 = require("../../../services/ingest-gateway/src/adapters/idempotency-store");
const payload_recorder_1 = require("../../../services/ingest-gateway/src/adapters/payload-recorder");
const redis_limiter_1 = require("../../../services/ingest-gateway/src/adapters/limiter/redis-limiter");
const metrics_1 = require("../../../services/ingest-gateway/src/adapters/metrics");
const app_1 = require("../../../services/ingest-gateway/src/app");
const server_1 = require("../../../services/ingest-gateway/src/transport/server");
const infra_1 = require("../../support/infra");
const activity_messages_1 = require("../../support/activity-messages");
const logger_1 = require("../../support/logger");
const store_models_1 = require("../../support/store-models");
class IngestHarness {
    namespace;
    store;
    redis;
    rows = [];
    deliveries = [];
    instances = [];
    consumer = null;
    markerEndpoint = null;
    secrets = (0, secrets_1.createSecretBox)(`k1:${(0, node_crypto_1.randomBytes)(32).toString('base64')}`);
    changes;
    constructor(namespace, store, 
    /** the test's own Redis connection, to read counters */
    redis) {
        this.namespace = namespace;
        this.store = store;
        this.redis = redis;
        this.changes = (0, cache_1.createChangePublisher)(redis, namespace, (0, logger_1.testLogger)().logger);
    }
    static async start(label) {
        const ns = (0, infra_1.testNamespace)(label);
        const store = await (0, store_1.connectStore)(ns.mongodbUrl);
        return new IngestHarness(ns.namespace, store, new ioredis_1.Redis(infra_1.infra.redisUrl));
    }
    /** One gateway instance: its own broker connection, Redis clients, endpoint cache and limiter. */
    async gateway(opts = {}) {
        const { logger, lines } = (0, logger_1.testLogger)('ingest-gateway');
        const metrics = (0, metrics_1.createGatewayMetrics)();
        const broker = new broker_1.BrokerConnection({ url: opts.rabbitmqUrl ?? infra_1.infra.rabbitmqUrl, connectionName: `test gateway ${this.namespace}`, logger, topology: { namespace: this.namespace, deliveryLimit: 20 }, reconnectMinMs: 100, reconnectMaxMs: 500 });
        await broker.start();
        const redis = new ioredis_1.Redis(infra_1.infra.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
        // quick reconnects for the outage tests; a short disconnectTimeout so a stream to a closed
        // port does not hold a 2 s ioredis timer past the test
        const limiterRedis = new ioredis_1.Redis(opts.limiterRedisUrl ?? infra_1.infra.redisUrl, { ...(0, redis_limiter_1.limiterRedisOptions)(200), retryStrategy: () => 100, disconnectTimeout: 50 });
        for (const r of [redis, limiterRedis])
            r.on('error', () => undefined);
        await (0, infra_1.eventually)(async () => redis.status === 'ready', 5000, 'redis');
        const publisher = new broker_1.ConfirmPublisher(broker, 1000, (result) => metrics.publishes.inc({ result }));
        const events = (0, event_publisher_1.createEventPublisher)(publisher, this.namespace);
        const spool = (0, activity_spool_1.createActivitySpool)(redis, this.namespace, (0, contracts_1.newId)('gw'), logger);
        (0, metrics_1.registerSpoolLength)(metrics.registry, () => spool.length());
        const cacheMetrics = (0, cache_1.createCacheMetrics)(metrics.registry);
        const endpoints = new endpoint_cache_1.EndpointCache({
            loader: (0, endpoint_loader_1.createEndpointLoader)(opts.store ?? this.store, logger, (sealed) => this.secrets.decrypt(sealed), 1000, cacheMetrics),
            maxEntries: 1000,
            staleIfErrorMs: 60000,
            loadTimeoutMs: 1000,
            logger,
            onLookupFailure: (served) => metrics.endpointLookupFailures.inc({ served }),
        });
        // as main.ts: the cache follows the change announcements (here on connections of its own, so a test can cut them)
        const subscriber = new ioredis_1.Redis(opts.changesRedisUrl ?? infra_1.infra.redisUrl, { retryStrategy: () => 100 });
        const counter = new ioredis_1.Redis(opts.changesRedisUrl ?? infra_1.infra.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => 100 });
        for (const r of [subscriber, counter])
            r.on('error', () => undefined);
        await (0, infra_1.eventually)(async () => counter.status === 'ready', 5000, 'redis');
        const feed = new cache_1.ChangeFeed({ subscriber, commands: counter, namespace: this.namespace, logger, checkIntervalMs: 100, sweepIntervalMs: 0 });
        endpoints.follow(feed, { batchSize: 50, pauseMs: 0 }, cacheMetrics);
        let heard = 0;
        feed.onChange((change) => (heard = change.seq));
        await feed.start();
        const app = (0, app_1.createApp)({
            endpoints,
            events,
            activity: (0, activity_recorder_1.createActivityRecorder)(events, spool, logger),
            limiter: (0, redis_limiter_1.createRedisLimiter)({ redis: limiterRedis, namespace: this.namespace, logger, fallbackCounter: metrics.limiterFallback, retryAfterFailureMs: 200 }),
            captcha: (0, captcha_verifier_1.createCaptchaVerifier)({ send: (0, targets_1.createSender)({ timeoutMs: opts.captchaTimeoutMs ?? 2000, allowCidrs: ['127.0.0.0/8'] }), logger, unavailableCounter: metrics.captchaUnavailable }),
            payloads: (0, payload_recorder_1.createPayloadRecorder)((0, broker_1.createPayloadPublisher)(publisher, this.namespace), logger, () => undefined),
            idempotency: (0, idempotency_store_1.createIdempotencyStore)({ redis: limiterRedis, namespace: this.namespace, windowMs: 86_400_000, logger, onUnavailable: () => undefined }),
            logger,
            metrics,
            maxBodyBytes: opts.maxBodyBytes ?? 1048576,
            bodyTimeoutMs: opts.bodyTimeoutMs ?? 15000,
            publicBaseUrl: opts.publicBaseUrl ?? null,
            trustProxyHops: opts.trustProxyHops ?? 0,
            now: opts.clock ?? (() => new Date()),
        });
        // the server main.ts runs: its timeouts, Expect handling and parser-error answers
        const server = (0, server_1.createIngestServer)(app, {
            headersTimeoutMs: opts.headersTimeoutMs ?? 10000,
            bodyTimeoutMs: opts.bodyTimeoutMs ?? 15000,
            logger,
            onClientError: (code) => metrics.requests.inc({ outcome: code }),
        });
        await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
        let stopped = null;
        const instance = {
            url: `http://127.0.0.1:${server.address().port}`,
            metrics,
            logs: lines,
            heardSeq: () => heard,
            stopped: () => stopped !== null,
            // idempotent: a test may stop an instance that the harness stops again at the end
            stop: () => (stopped ??= (async () => {
                server.closeAllConnections();
                await new Promise((resolve) => server.close(() => resolve()));
                await events.settle(1000);
                await broker.close();
                feed.stop();
                redis.disconnect();
                limiterRedis.disconnect();
                subscriber.disconnect();
                counter.disconnect();
            })()),
        };
        this.instances.push(instance);
        await this.consume();
        return instance;
    }
    async account(plan = {}) {
        const id = (0, contracts_1.newId)('acc');
        await (0, store_models_1.modelsOf)(this.store).accounts.create({ _id: id, name: id, plan: { name: 'test', monthly_accepted_events: 1_000_000, payload_limit_bytes: 65536, ...plan }, created_at: new Date() });
        return id;
    }
    /** Stores an endpoint (secrets must already be sealed with `seal`) with `targets` webhook targets. */
    async endpoint(accountId, fields = {}, targets = 1) {
        const id = (0, contracts_1.newId)('ep');
        const now = new Date();
        await (0, store_models_1.modelsOf)(this.store).endpoints.create({ _id: id, account_id: accountId, name: id, enabled: true, paused: false, methods: ['POST'], payload_format: 'json', inbound_auth: { type: 'NONE' }, ...fields, created_at: now, updated_at: now });
        for (let i = 0; i < targets; i++) {
            await (0, store_models_1.modelsOf)(this.store).targets.create({ _id: (0, contracts_1.newId)('tg'), account_id: accountId, endpoint_id: id, kind: 'webhook', name: 't', enabled: true, config: { url: 'http://127.0.0.1:9/hook', enforce_https: false }, created_at: now, updated_at: now });
        }
        return id;
    }
    /** Changes an endpoint as the management API does: stored, then announced; returns once every running gateway applied it. */
    async update(endpointId, fields) {
        await (0, store_models_1.modelsOf)(this.store).endpoints.updateOne({ _id: endpointId }, { $set: { ...fields, updated_at: new Date() }, $inc: { revision: 1 } });
        const seq = (await this.changes.announce({ scope: 'endpoint', id: endpointId })) ?? Infinity;
        await (0, infra_1.eventually)(async () => this.instances.every((gw) => gw.stopped() || gw.heardSeq() >= seq), 5000, `announcement ${seq} heard by every gateway`);
    }
    seal(secret) {
        return this.secrets.encrypt(secret);
    }
    rowsOf(endpointId) {
        return this.rows.filter((r) => r.endpoint_id === endpointId);
    }
    async waitForRows(endpointId, count) {
        return (0, infra_1.eventually)(async () => this.rowsOf(endpointId).length >= count && this.rowsOf(endpointId), 10000, `${count} activity row(s) of ${endpointId}`);
    }
    deliveriesOf(endpointId) {
        return this.deliveries.filter((d) => d.endpoint_id === endpointId);
    }
    /**
     * Waits until every row of the requests already answered by `gateway` has arrived: a request
     * that does leave a row is sent after them, and rows leave a gateway in order on one confirm
     * channel. Then "no row" can be asserted.
     */
    async settle(gateway) {
        if (!this.markerEndpoint)
            this.markerEndpoint = await this.endpoint(await this.account(), { methods: ['POST'] }, 0);
        const before = this.rowsOf(this.markerEndpoint).length;
        await fetch(`${gateway.url}/relay/${this.markerEndpoint}`, { method: 'DELETE' });
        await this.waitForRows(this.markerEndpoint, before + 1);
    }
    async expectNoRows(endpointId, gateway) {
        await this.settle(gateway);
        expect(this.rowsOf(endpointId)).toEqual([]);
    }
    async stop() {
        await Promise.all(this.instances.map((g) => g.stop()));
        await this.consumer?.conn.close().catch(() => undefined);
        await this.store.connection.dropDatabase().catch(() => undefined);
        await this.store.close();
        const keys = await this.redis.keys(`${this.namespace}:*`);
        if (keys.length)
            await this.redis.del(...keys);
        this.changes.close();
        this.redis.disconnect();
        await (0, infra_1.deleteBrokerNamespace)(this.namespace);
    }
    /** Reads the activity and delivery queues (declared by the first gateway) into arrays. */
    async consume() {
        if (this.consumer)
            return;
        const conn = await amqplib_1.default.connect(infra_1.infra.rabbitmqUrl);
        const ch = await conn.createChannel();
        this.consumer = { conn, ch };
        const names = (0, contracts_1.brokerNames)(this.namespace);
        const into = (list) => (msg) => {
            if (!msg)
                return;
            list.push(JSON.parse(msg.content.toString('utf8')));
            ch.ack(msg);
        };
        for (const queue of names.activityPartitionQueues) {
            await ch.consume(queue, (msg) => {
                if (!msg)
                    return;
                this.rows.push(...(0, activity_messages_1.activityRecordsOf)(msg.content));
                ch.ack(msg);
            });
        }
        await ch.consume(names.deliveryQueue('webhook'), into(this.deliveries));
    }
}
exports.IngestHarness = IngestHarness;
//# sourceMappingURL=harness.js.map