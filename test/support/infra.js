"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.infra = void 0;
exports.testNamespace = testNamespace;
exports.deleteBrokerNamespace = deleteBrokerNamespace;
exports.eventually = eventually;
const node_crypto_1 = require("node:crypto");
const amqplib_1 = __importDefault(require("amqplib"));
const contracts_1 = require("@relay/contracts");
const deliverer_1 = require("@relay/deliverer");
/**
 * The real local servers `npm run infra:up` starts (or the ones named by the same variables
 * the services read). Every test file gets its own namespace — queue names, Redis keys and
 * MongoDB database — so files never see each other's data and can clean up what they made.
 */
exports.infra = {
    rabbitmqUrl: process.env.RABBITMQ_URL ?? 'amqp://127.0.0.1:5672',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    mongoBaseUrl: process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017/relay',
};
function testNamespace(label) {
    const namespace = `t_${label.replace(/[^a-z0-9]/gi, '').slice(0, 20)}_${(0, node_crypto_1.randomBytes)(4).toString('hex')}`;
    const u = new URL(exports.infra.mongoBaseUrl);
    u.pathname = `/${namespace}`;
    return { namespace, mongodbUrl: u.toString() };
}
/** Deletes every queue and exchange a namespace declared (retry tiers: the given ones and the deliverers' defaults). */
async function deleteBrokerNamespace(namespace, retryDelaysMs = []) {
    const conn = await amqplib_1.default.connect(exports.infra.rabbitmqUrl);
    try {
        const ch = await conn.createChannel();
        ch.on('error', () => undefined);
        const n = (0, contracts_1.brokerNames)(namespace);
        const queues = [n.activityQueue, ...n.activityPartitionQueues, n.activityWritersQueue, n.deadActivityQueue, n.payloadQueue, n.accountEventQueue];
        for (const c of contracts_1.DELIVERY_CHANNELS) {
            queues.push(n.deliveryQueue(c), n.deadDeliveryQueue(c));
            for (const d of new Set([...retryDelaysMs, ...(0, deliverer_1.defaultRetryTiers)(c)]))
                queues.push(n.retryQueue(c, d));
        }
        for (const q of queues)
            await ch.deleteQueue(q).catch(() => undefined);
        for (const e of [n.deliveriesExchange, n.activityExchange, n.deadLetterExchange, n.retryExchange, (0, contracts_1.cliSessionsExchange)(namespace)])
            await ch.deleteExchange(e).catch(() => undefined);
        await ch.close().catch(() => undefined);
    }
    finally {
        await conn.close().catch(() => undefined);
    }
}
/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
async function eventually(check, timeoutMs = 10000, what = 'condition') {
    const deadline = Date.now() + timeoutMs;
    let last;
    for (;;) {
        try {
            const v = await check();
            if (v !== undefined && v !== false && v !== null)
                return v;
        }
        catch (err) {
            last = err;
        }
        if (Date.now() > deadline)
            throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ''}`);
        await new Promise((r) => setTimeout(r, 50));
    }
}
//# sourceMappingURL=infra.js.map