"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startStack = startStack;
const node_crypto_1 = require("node:crypto");
const ioredis_1 = require("ioredis");
const store_1 = require("@relay/store");
const infra_1 = require("../support/infra");
const api_client_1 = require("../support/api-client");
const openapi_check_1 = require("../support/openapi-check");
const services_1 = require("../support/services");
async function startStack(label, opts = {}) {
    const ns = (0, infra_1.testNamespace)(label);
    const env = {
        RABBITMQ_URL: infra_1.infra.rabbitmqUrl,
        REDIS_URL: infra_1.infra.redisUrl,
        MONGODB_URL: ns.mongodbUrl,
        RELAY_NAMESPACE: ns.namespace,
        SSRF_ALLOW_CIDRS: '127.0.0.0/8',
        SECRETS_KEYS: `k1:${(0, node_crypto_1.randomBytes)(32).toString('base64')}`,
    };
    // the gateway first: the management API runs test requests through it (GATEWAY_INTERNAL_URL)
    const names = [...(opts.only ?? ['ingest-gateway', 'management-api', 'webhook-deliverer', 'activity-writer'])].sort((a, b) => Number(b === 'ingest-gateway') - Number(a === 'ingest-gateway'));
    const services = {};
    const envOf = (name) => {
        const gateway = services['ingest-gateway'];
        const extra = name === 'management-api' ? { PUBLIC_BASE_URL: 'http://127.0.0.1:1', ...(gateway ? { GATEWAY_INTERNAL_URL: gateway.healthUrl } : {}) } : {};
        return { ...env, ...extra, ...(opts.overrides?.[name] ?? {}) };
    };
    const store = await (0, store_1.connectStore)(ns.mongodbUrl);
    const redis = new ioredis_1.Redis(infra_1.infra.redisUrl);
    const stack = {
        namespace: ns.namespace,
        env,
        services,
        apiKey: '',
        accountId: '',
        store,
        redis,
        get client() {
            return stack.clientAs(stack.apiKey);
        },
        clientAs(key, url) {
            return (0, api_client_1.testClient)(url ?? services['management-api'].url, key);
        },
        async api(path, init = {}) {
            const method = init.method ?? 'GET';
            const res = await fetch(`${init.url ?? services['management-api'].url}${path}`, {
                method,
                headers: { authorization: `Bearer ${init.key ?? stack.apiKey}`, 'content-type': 'application/json' },
                body: init.body === undefined ? undefined : JSON.stringify(init.body),
            });
            const text = await res.text();
            // issue 11: the document cannot drift — a response it does not describe fails the test
            const problems = (0, openapi_check_1.checkResponse)({ method, url: path, status: res.status, contentType: res.headers.get('content-type') ?? undefined, text });
            if (problems.length > 0)
                throw new Error(`management API response departs from the OpenAPI document:\n  ${problems.join('\n  ')}`);
            return { status: res.status, body: text ? JSON.parse(text) : null };
        },
        async restart(name, signal) {
            await services[name]?.stop(signal);
            services[name] = await (0, services_1.startService)(name, envOf(name));
        },
        async stop() {
            await Promise.all(Object.values(services).map((s) => s.stop()));
            await store.connection.dropDatabase().catch(() => undefined);
            await store.close();
            const keys = await redis.keys(`${ns.namespace}:*`);
            if (keys.length)
                await redis.del(...keys);
            redis.disconnect();
            await (0, infra_1.deleteBrokerNamespace)(ns.namespace);
        },
    };
    try {
        for (const name of names)
            services[name] = await (0, services_1.startService)(name, envOf(name));
        const account = await (0, services_1.bootstrapAccount)(env);
        stack.apiKey = account.api_key;
        stack.accountId = account.account_id;
    }
    catch (err) {
        await stack.stop();
        throw err;
    }
    return stack;
}
//# sourceMappingURL=stack.js.map