"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startChaosStack = startChaosStack;
const node_crypto_1 = require("node:crypto");
const services_1 = require("../../support/services");
async function startChaosStack(servers, opts) {
    const env = {
        ...servers.env('relay_chaos'),
        RELAY_NAMESPACE: 'chaos',
        SSRF_ALLOW_CIDRS: '127.0.0.0/8',
        SECRETS_KEYS: `k1:${(0, node_crypto_1.randomBytes)(32).toString('base64')}`,
        LOG_LEVEL: 'warn',
    };
    const perService = {
        'management-api': { PUBLIC_BASE_URL: 'http://127.0.0.1:1' },
        // no jitter: a failed first attempt waits exactly the first tier
        'webhook-deliverer': { RETRY_TIERS_MS: opts.retryTiersMs.join(','), RETRY_JITTER_PCT: '0', RETRY_AFTER_MAX_MS: String(Math.min(...opts.retryTiersMs)) },
    };
    const started = [];
    const start = async (name) => {
        const svc = await (0, services_1.startService)(name, { ...env, ...(perService[name] ?? {}) });
        started.push(svc);
        return svc;
    };
    const stack = { env, started, startService: start, apiKey: '' };
    stack.stop = async () => {
        await Promise.all(started.map((s) => s.stop('SIGTERM')));
    };
    stack.call = async (path, init = {}) => {
        const res = await fetch(`${stack.api.url}${path}`, {
            method: init.method ?? 'GET',
            headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
            body: init.body === undefined ? undefined : JSON.stringify(init.body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    try {
        stack.api = await start('management-api');
        stack.writer = await start('activity-writer');
        stack.deliverers = [await start('webhook-deliverer'), await start('webhook-deliverer')];
        stack.gateway = await start('ingest-gateway');
        stack.apiKey = (await (0, services_1.bootstrapAccount)(env, ['--account', 'chaos', '--monthly-events', String(opts.monthlyEvents)])).api_key;
    }
    catch (err) {
        await stack.stop();
        throw err;
    }
    return stack;
}
//# sourceMappingURL=chaos-stack.js.map