"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.PLAN = void 0;
exports.startManagement = startManagement;
const node_crypto_1 = require("node:crypto");
const node_http_1 = require("node:http");
const ioredis_1 = require("ioredis");
const supertest_1 = __importDefault(require("supertest"));
const client_1 = require("@relay/client");
const contracts_1 = require("@relay/contracts");
const store_1 = require("@relay/store");
const alerts_1 = require("@relay/alerts");
const broker_1 = require("@relay/broker");
const secrets_1 = require("@relay/secrets");
const targets_1 = require("@relay/targets");
const resend_allowance_1 = require("../../../services/management-api/src/adapters/resend-allowance");
const resend_1 = require("../../../services/management-api/src/domain/resend");
const action_limiter_1 = require("../../../services/management-api/src/adapters/action-limiter");
const api_keys_1 = require("../../../services/management-api/src/adapters/api-keys");
const bulk_retry_store_1 = require("../../../services/management-api/src/adapters/bulk-retry-store");
const gateway_client_1 = require("../../../services/management-api/src/adapters/gateway-client");
const target_breakers_1 = require("../../../services/management-api/src/adapters/target-breakers");
const invalidation_1 = require("../../../services/management-api/src/adapters/invalidation");
const account_lock_1 = require("../../../services/management-api/src/adapters/account-lock");
const usage_counter_1 = require("../../../services/management-api/src/adapters/usage-counter");
const app_1 = require("../../../services/management-api/src/app");
const infra_1 = require("../../support/infra");
const logger_1 = require("../../support/logger");
const openapi_recorder_1 = require("../../support/openapi-recorder");
const store_models_1 = require("../../support/store-models");
// every response any test of this file received is checked against the OpenAPI document
afterEach(openapi_recorder_1.failOnMismatches);
exports.PLAN = { name: 'starter', monthly_accepted_events: 1000, payload_limit_bytes: 262144 };
async function startManagement(label, opts = {}) {
    const ns = (0, infra_1.testNamespace)(label);
    const store = await (0, store_1.connectStore)(ns.mongodbUrl);
    const redis = new ioredis_1.Redis(infra_1.infra.redisUrl, { maxRetriesPerRequest: 1 });
    const subscriber = new ioredis_1.Redis(infra_1.infra.redisUrl);
    const announced = [];
    subscriber.on('message', (_channel, text) => {
        const change = (0, contracts_1.decodeCacheChange)(text);
        if (change)
            announced.push((0, contracts_1.encodeCacheChange)(change));
    });
    await subscriber.subscribe((0, contracts_1.cacheChangesChannel)(ns.namespace));
    const secretsKeys = `k1:${(0, node_crypto_1.randomBytes)(32).toString('base64')}`;
    const secrets = (0, secrets_1.createSecretBox)(secretsKeys);
    const { logger, lines } = (0, logger_1.testLogger)('management-api');
    const now = opts.now ?? (() => new Date());
    const express = (0, app_1.createApp)({
        store,
        registry: (0, targets_1.createDefaultRegistry)({ secrets }),
        secrets,
        logger,
        publicBaseUrl: 'https://relay.example',
        announceChange: (0, invalidation_1.createInvalidator)(redis, ns.namespace, logger),
        breakers: (0, target_breakers_1.createTargetBreakers)(redis, ns.namespace, store, (0, invalidation_1.createInvalidator)(redis, ns.namespace, logger)),
        acceptedEvents: opts.acceptedEvents ?? (0, usage_counter_1.createUsageCounter)(redis, ns.namespace),
        dailyUsage: (0, usage_counter_1.createDailyUsageReader)(redis, ns.namespace),
        accountLock: (0, account_lock_1.createAccountLock)(redis, ns.namespace),
        readiness: { mongodb: () => store.ping(), redis: () => redis.status === 'ready' },
        ...(opts.now ? { now: opts.now } : {}),
        replay: replayDeps(store, redis, ns.namespace, secretsKeys, logger, now),
        alerts: alertDeps(store, redis, ns.namespace, logger, now),
    });
    const app = (0, openapi_recorder_1.recordingResponses)(express);
    const server = (0, node_http_1.createServer)(app);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${server.address().port}`;
    const clientAs = (key) => (0, client_1.createRelayClient)({ baseUrl, apiKey: key });
    const newAccount = async (plan = exports.PLAN) => {
        const accountId = (0, contracts_1.newId)('acc');
        await (0, store_models_1.modelsOf)(store).accounts.create({ _id: accountId, name: 'test account', plan, created_at: new Date() });
        return { accountId, apiKey: await (0, api_keys_1.issueApiKey)(store, accountId) };
    };
    const own = await newAccount();
    const as = (key, method, path, body) => {
        const req = (0, supertest_1.default)(app)[method](path).set('Authorization', `Bearer ${key}`);
        return body === undefined ? req : req.send(body);
    };
    return {
        app,
        express,
        store,
        redis,
        namespace: ns.namespace,
        secrets,
        ...own,
        logLines: lines,
        announced,
        api(method, path, body) {
            return as(own.apiKey, method, path, body);
        },
        apiAs: as,
        client: clientAs(own.apiKey),
        clientAs,
        async keyWithRole(role) {
            const key = await (0, client_1.must)(clientAs(own.apiKey).POST('/v1/api-keys', { body: { role, name: `${role} key` } }));
            return { secret: key.secret, id: key.id };
        },
        newAccount,
        async close() {
            server.closeAllConnections();
            await new Promise((resolve) => server.close(() => resolve()));
            await store.connection.dropDatabase().catch(() => undefined);
            await store.close();
            const keys = await redis.keys(`${ns.namespace}:*`);
            if (keys.length)
                await redis.del(...keys);
            redis.disconnect();
            subscriber.disconnect();
        },
    };
}
/**
 * The test request, resend and bulk retry routes, mounted as main.ts mounts them, so the role
 * test and the route inventory cover them too. What they reach past the store and Redis is here
 * in its unavailable state — no gateway listens at the discard port, the broker connection is
 * not started — so a test request or a resend that got that far would answer its documented 503;
 * their work is tested end to end (test/e2e/replay.test.ts, test/e2e/bulk-retry.test.ts).
 */
function replayDeps(store, redis, namespace, secretsKeys, logger, now) {
    const broker = new broker_1.BrokerConnection({ url: infra_1.infra.rabbitmqUrl, connectionName: `management-api fixture ${namespace}`, logger, topology: { namespace, deliveryLimit: 20 } });
    return {
        store,
        logger,
        now,
        gateway: (0, gateway_client_1.createGatewayClient)({ baseUrl: 'http://127.0.0.1:9', signer: (0, secrets_1.createInternalSigner)(secretsKeys, 'test-request'), timeoutMs: 5000 }),
        deliveries: new broker_1.DeliveryPublisher(new broker_1.ConfirmPublisher(broker, 5000), namespace),
        limits: (0, action_limiter_1.createActionLimiter)(redis, namespace, logger),
        resendAllowance: (0, resend_allowance_1.createResendAllowance)(redis, namespace, resend_1.MAX_RESENT_DELIVERIES_PER_EVENT, 30 * 86_400_000),
        jobs: new bulk_retry_store_1.BulkRetryStore(store),
        retentionMs: 30 * 86_400_000,
        testRequestsPerMinute: 60,
        resendsPerMinute: 600,
        bulkRetryMaxRate: 50,
    };
}
/**
 * The alert rule routes, mounted as main.ts mounts them (the role test and the route inventory
 * cover them). The broker connection is not started, so a test alert's deliveries are recorded
 * as not queued; alerts are delivered end to end in test/e2e/alerts.test.ts.
 */
function alertDeps(store, redis, namespace, logger, now) {
    const broker = new broker_1.BrokerConnection({ url: infra_1.infra.rabbitmqUrl, connectionName: `management-api alerts fixture ${namespace}`, logger, topology: { namespace, deliveryLimit: 20 } });
    const rules = new alerts_1.AlertRuleStore(store);
    const evaluator = new alerts_1.AlertEvaluator({ store, rules, redis, publisher: new broker_1.ConfirmPublisher(broker, 5000), namespace, logger, dashboardUrl: 'https://relay.example/', now });
    return { store, rules, evaluator, redis, namespace, limits: (0, action_limiter_1.createActionLimiter)(redis, namespace, logger), now };
}
//# sourceMappingURL=fixture.js.map