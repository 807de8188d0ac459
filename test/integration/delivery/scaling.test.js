"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_crypto_1 = require("node:crypto");
const broker_1 = require("@relay/broker");
const secrets_1 = require("@relay/secrets");
const store_1 = require("@relay/store");
const cache_1 = require("@relay/cache");
const deliverer_1 = require("@relay/deliverer");
const prom_client_1 = require("prom-client");
const targets_1 = require("@relay/targets");
const infra_1 = require("../../support/infra");
const logger_1 = require("../../support/logger");
const receiver_1 = require("../../support/receiver");
const harness_1 = require("./harness");
/*
 * "Each deliverer scales by instance count alone": a second instance with its own broker
 * connection and store connection joins the same queue and shares the work, with no
 * coordination and no delivery sent twice.
 */
const kind = (0, targets_1.createWebhookKind)({ secrets: (0, secrets_1.createSecretBox)(`it:${(0, node_crypto_1.randomBytes)(32).toString('base64')}`) });
const sender = (0, targets_1.createSender)({ timeoutMs: 3000, allowCidrs: ['127.0.0.0/8'] });
const sentBy = { first: 0, second: 0 };
let h;
let receiver;
let second;
beforeAll(async () => {
    receiver = await receiver_1.TestReceiver.start();
    h = await (0, harness_1.startHarness)('scaling', { channel: 'webhook', kinds: [kind], send: (req) => ((sentBy.first += 1), sender(req)) });
    const store = await (0, store_1.connectStore)(h.mongodbUrl);
    const broker = new broker_1.BrokerConnection({ url: infra_1.infra.rabbitmqUrl, connectionName: 'second', logger: (0, logger_1.testLogger)().logger, topology: { namespace: h.namespace, deliveryLimit: 20, retryDelaysMs: { webhook: harness_1.TEST_TIERS_MS } } });
    await broker.start();
    const changes = (0, cache_1.connectChangeFeed)({ redisUrl: infra_1.infra.redisUrl, namespace: h.namespace, checkIntervalMs: 100, sweepIntervalMs: 0, logger: (0, logger_1.testLogger)().logger });
    const deliverer = (0, deliverer_1.createDeliverer)({
        channel: 'webhook', namespace: h.namespace, broker, store, registry: (0, targets_1.createRegistry)([kind]), logger: (0, logger_1.testLogger)().logger,
        send: (req) => ((sentBy.second += 1), sender(req)),
        prefetch: 8, targetCacheMax: 1000, changes, revalidation: { batchSize: 50, pauseMs: 0 }, confirmTimeoutMs: 5000, retry: { tiersMs: harness_1.TEST_TIERS_MS, jitterPct: 0, retryAfterMaxMs: 1000 }, flagAfterPermanentFailures: 3, metrics: new prom_client_1.Registry(),
    });
    await changes.feed.start();
    await deliverer.start();
    second = {
        broker,
        store,
        async stop() {
            await deliverer.stop(2000);
            await broker.close();
            await changes.close();
            await store.close();
        },
    };
});
afterAll(async () => {
    await second?.stop();
    await h?.close();
    await receiver?.close();
});
it('two deliverer instances on one queue share the deliveries; each is sent exactly once', async () => {
    const v = kind.validateConfig({ url: receiver.url(), enforce_https: false });
    if (!v.ok)
        throw new Error('config');
    const targetId = await h.addTarget({ kind: 'webhook', config: v.value });
    const deliveries = Array.from({ length: 60 }, () => (0, harness_1.deliveryFor)(targetId, 'webhook'));
    await Promise.all(deliveries.map((d) => h.publish(d)));
    await receiver.waitForRequests(60, 15000);
    await (0, infra_1.eventually)(async () => h.attempts.length >= 60, 5000, 'every attempt recorded');
    const ids = receiver.requests.map((r) => r.headers['x-relay-delivery-id']);
    expect(new Set(ids).size).toBe(60);
    expect(ids).toHaveLength(60);
    expect(sentBy.first).toBeGreaterThan(0);
    expect(sentBy.second).toBeGreaterThan(0);
    expect(sentBy.first + sentBy.second).toBe(60);
});
//# sourceMappingURL=scaling.test.js.map