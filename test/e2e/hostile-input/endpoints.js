"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ROLES = void 0;
exports.createRoster = createRoster;
const node_crypto_1 = require("node:crypto");
const client_1 = require("@relay/client");
const fast = { rate_limit_per_minute: 100000 };
exports.ROLES = {
    json_open: { settings: { payload_format: 'json', methods: ['POST', 'PUT', 'PATCH'] }, auth: { type: 'NONE' }, target: true },
    json_github: { settings: { payload_format: 'json' }, auth: { type: 'HMAC', preset: 'github', secret: 'hostile-github-secret-0001' } },
    json_stripe: { settings: { payload_format: 'json' }, auth: { type: 'HMAC', preset: 'stripe', secret: 'whsec_hostile_stripe_0001' } },
    json_bearer: { settings: { payload_format: 'json' }, auth: { type: 'BEARER', token: 'hostile-bearer-token-0001' } },
    // with TRUST_PROXY_HOPS=1 the last X-Forwarded-For entry is the source address
    json_ipallow: { settings: { payload_format: 'json', ip_access: { allow: ['127.0.0.1'], deny: [] } }, auth: { type: 'NONE' } },
    form_open: { settings: { payload_format: 'form' }, auth: { type: 'NONE' }, target: true },
    form_basic: { settings: { payload_format: 'form' }, auth: { type: 'BASIC', username: 'hostile', password: 'pa:ss-0001' } },
    xml_open: { settings: { payload_format: 'xml' }, auth: { type: 'NONE' }, target: true },
    xml_apikey: { settings: { payload_format: 'xml' }, auth: { type: 'API_KEY', header: 'X-API-Key', key: 'hostile-api-key-0001' } },
    text_open: { settings: { payload_format: 'text', methods: ['POST', 'PUT'] }, auth: { type: 'NONE' }, target: true },
    query_open: { settings: { payload_format: 'query', methods: ['GET', 'HEAD', 'POST'] }, auth: { type: 'NONE' }, target: true },
    b64_open: { settings: { payload_format: 'query_base64_json', query_param_name: 'd', methods: ['GET', 'POST'] }, auth: { type: 'NONE' }, target: true },
    b64_bearer: { settings: { payload_format: 'query_base64_json', query_param_name: 'payload', methods: ['GET', 'POST'] }, auth: { type: 'BEARER', token: 'hostile-bearer-token-0002' } },
    none_open: { settings: { payload_format: 'none', methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] }, auth: { type: 'NONE' } },
    // the prototype-pollution canary: `{}` passes only if Object.prototype.hostile_polluted exists
    json_canary: { settings: { payload_format: 'json', field_rules: [{ path: 'hostile_polluted', required: true }] }, auth: { type: 'NONE' } },
};
async function createRoster(stack) {
    const id = {};
    for (const [name, role] of Object.entries(exports.ROLES)) {
        const created = await (0, client_1.must)(stack.client.POST('/v1/endpoints', { body: { name: `hostile ${name}`, ...fast, ...role.settings, inbound_auth: storedAuth(role.auth) } }));
        id[name] = created.id;
        if (role.target) {
            // port 9 (discard): nothing delivers in this suite, the address only has to be valid
            const target = { kind: 'webhook', name: 'nowhere', config: { url: 'http://127.0.0.1:9/hook', enforce_https: false } };
            await (0, client_1.must)(stack.client.POST('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId: id[name] } }, body: target }));
        }
    }
    return {
        id,
        format: (role) => exports.ROLES[role].settings.payload_format,
        credentials: (role, body, valid, variant) => credentialLines(exports.ROLES[role].auth, body, valid, variant),
        authenticated: (role) => exports.ROLES[role].auth.type !== 'NONE',
    };
}
function storedAuth(auth) {
    switch (auth.type) {
        case 'NONE':
            return { type: 'NONE' };
        case 'BASIC':
            return { type: 'BASIC', credentials: [{ username: auth.username, password: auth.password }] };
        case 'BEARER':
            return { type: 'BEARER', tokens: [auth.token] };
        case 'API_KEY':
            return { type: 'API_KEY', header: auth.header, keys: [auth.key] };
        case 'HMAC':
            return { type: 'HMAC', preset: auth.preset, secrets: [auth.secret] };
    }
}
const hmacHex = (secret, data) => (0, node_crypto_1.createHmac)('sha256', secret).update(data).digest('hex');
function credentialLines(auth, body, valid, variant) {
    if (auth.type === 'NONE')
        return [];
    // invalid: every other time the credential is missing, otherwise it is wrong
    if (!valid && variant % 2 === 0)
        return [];
    const garble = (s) => (valid ? s : `${s.slice(0, -1)}${s.endsWith('0') ? '1' : '0'}`);
    switch (auth.type) {
        case 'BASIC':
            return [`Authorization: Basic ${Buffer.from(`${auth.username}:${garble(auth.password)}`).toString('base64')}`];
        case 'BEARER':
            return [`Authorization: Bearer ${garble(auth.token)}`];
        case 'API_KEY':
            return [`${auth.header}: ${garble(auth.key)}`];
        case 'HMAC': {
            if (auth.preset === 'github')
                return [`X-Hub-Signature-256: sha256=${garble(hmacHex(auth.secret, body))}`];
            const t = Math.floor(Date.now() / 1000);
            const signed = Buffer.concat([Buffer.from(`${t}.`), body]);
            return [`Stripe-Signature: t=${t},v1=${garble(hmacHex(auth.secret, signed))}`];
        }
    }
}
//# sourceMappingURL=endpoints.js.map