"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_crypto_1 = require("node:crypto");
const endpoints_1 = require("@relay/endpoints");
const curl_1 = require("../../../services/management-api/dashboard/src/lib/curl");
const signed_example_1 = require("../../../services/management-api/dashboard/src/lib/signed-example");
const verify_1 = require("../../../services/ingest-gateway/src/domain/auth/verify");
/**
 * Issue 24: the dashboard's signed example must be a request the gateway accepts. For every
 * preset the browser can sign, the headers it computes (WebCrypto, in lib/signed-example.ts)
 * pass the gateway's verifier for the sample request; a wrong secret does not.
 */
const NOW = new Date('2025-06-01T12:00:00.000Z');
const endpointFor = (preset) => ({
    ingest_url: 'https://relay.example/relay/ep_1',
    methods: ['POST'],
    payload_format: 'json',
    query_param_name: null,
    inbound_auth: { type: 'HMAC', preset },
    required_headers: [],
});
function secretFor(preset) {
    const format = endpoints_1.PRESET_SPECS[preset].secret.format;
    if (format === 'whsec')
        return `whsec_${(0, node_crypto_1.randomBytes)(24).toString('base64')}`;
    if (format === 'base64')
        return (0, node_crypto_1.randomBytes)(32).toString('base64');
    if (format === 'hex')
        return (0, node_crypto_1.randomBytes)(32).toString('hex');
    return `secret-${preset}-${(0, node_crypto_1.randomBytes)(6).toString('hex')}`;
}
const signable = endpoints_1.HMAC_PRESETS.filter((p) => (0, signed_example_1.canSignExample)(endpointFor(p)));
test('most presets get a signed example (all but MD5, public-key and URL+form presets)', () => {
    expect(signable.length).toBeGreaterThan(100);
    expect((0, signed_example_1.canSignExample)(endpointFor('discord'))).toBe(false);
    expect((0, signed_example_1.canSignExample)(endpointFor('twilio'))).toBe(false);
    expect((0, signed_example_1.canSignExample)(endpointFor('patreon'))).toBe(false);
});
test.each(signable)('%s: the gateway accepts the signed example, and not with another secret', async (preset) => {
    const secret = secretFor(preset);
    const setting = (0, endpoints_1.validateInboundAuth)({ type: 'HMAC', preset, secrets: [secret] });
    if (!setting.ok)
        throw new Error(JSON.stringify(setting.errors));
    const ep = endpointFor(preset);
    const sample = (0, curl_1.exampleRequest)(ep);
    const asRequest = (headers) => ({
        method: sample.method,
        url: sample.url,
        headers: { 'content-type': sample.body?.type ?? '', ...Object.fromEntries(headers.map(([k, v]) => [k.toLowerCase(), v])) },
        rawBody: Buffer.from(sample.body?.body ?? ''),
    });
    const headers = await (0, signed_example_1.signatureHeaders)(ep, secret, NOW);
    expect((0, verify_1.verifyInbound)(setting.value, asRequest(headers ?? []), NOW)).toEqual({ ok: true });
    const wrong = await (0, signed_example_1.signatureHeaders)(ep, secretFor(preset), NOW);
    expect((0, verify_1.verifyInbound)(setting.value, asRequest(wrong ?? []), NOW)).toMatchObject({ ok: false });
});
test('the signed line is the plain curl line plus the signature headers', async () => {
    const line = await (0, signed_example_1.signedCurlLine)(endpointFor('github'), 'It\'s a Secret to Everybody', NOW);
    expect(line).toMatch(/^curl -i -X POST 'https:\/\/relay\.example\/relay\/ep_1' -H 'x-hub-signature-256: sha256=[0-9a-f]{64}' -H 'x-github-delivery: example-[0-9a-f-]{36}' -H 'content-type: application\/json' --data-raw '\{"hello":"relay"\}'$/);
});
//# sourceMappingURL=signed-example.test.js.map