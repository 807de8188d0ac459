"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const client_1 = require("@relay/client");
const document_1 = require("../../../services/management-api/src/openapi/document");
const string_safety_1 = require("../../../services/management-api/src/openapi/string-safety");
const fixture_1 = require("./fixture");
const doc = document_1.managementApiDocument;
const resolve = (s) => {
    let at = s;
    for (let hops = 0; typeof at.$ref === 'string' && hops < 10; hops++)
        at = at.$ref.split('/').slice(1).reduce((n, k) => n[k], doc);
    return at;
};
/** Where the schema lets a string be: every property, item, map value and union branch (any value counts as one). */
function stringPaths(schema, at = [], depth = 0) {
    const s = resolve(schema);
    if (depth > 8)
        return [];
    const types = [].concat(s.type ?? []);
    const out = [];
    const branches = [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])];
    const untyped = types.length === 0 && branches.length === 0 && !s.properties && !('const' in s) && !('enum' in s);
    if (types.includes('string') || untyped)
        out.push(at);
    for (const [k, p] of Object.entries(s.properties ?? {}))
        if (resolve(p).readOnly !== true)
            out.push(...stringPaths(p, [...at, k], depth + 1));
    if (typeof s.additionalProperties === 'object')
        out.push(...stringPaths(s.additionalProperties, [...at, 'X-Sample'], depth + 1));
    if (s.items)
        out.push(...stringPaths(s.items, [...at, 0], depth + 1));
    for (const b of branches)
        out.push(...stringPaths(b, at, depth + 1));
    return out;
}
/** `['inbound_auth', 'tokens', 0]` → `inbound_auth.tokens[0]`, as the API names fields. */
const fieldName = (segments) => segments.reduce((f, s) => (typeof s === 'number' ? `${f}[${s}]` : f === '' ? s : `${f}.${s}`), '');
/** The smallest body that puts `value` at `segments`. */
const bodyWith = (segments, value) => segments.reduceRight((inner, s) => (typeof s === 'number' ? [inner] : { [s]: inner }), value);
const fill = (template, params) => template.replace(/\{(\w+)\}/g, (_m, name) => encodeURIComponent(params[name] ?? 'x_1'));
function cases() {
    const out = [];
    for (const [template, item] of Object.entries(doc.paths)) {
        for (const method of ['get', 'post', 'patch', 'delete']) {
            const op = item[method];
            if (!op || !op['x-relay-role'])
                continue;
            const params = op.parameters ?? [];
            for (const p of params.filter((x) => x.in === 'path')) {
                out.push({ method, path: template, field: String(p.name), send: (bad) => ({ url: fill(template, { [String(p.name)]: bad }) }) });
            }
            for (const p of params.filter((x) => x.in === 'query' && [].concat(resolve(x.schema).type).includes('string'))) {
                out.push({ method, path: template, field: String(p.name), send: (bad) => ({ url: `${fill(template, {})}?${p.name}=${encodeURIComponent(bad)}` }) });
            }
            const schema = op.requestBody?.content?.['application/json']?.schema;
            if (method === 'get' || !schema)
                continue;
            const seen = new Set();
            for (const segments of stringPaths(schema)) {
                const field = fieldName(segments);
                if (field === '' || seen.has(field))
                    continue;
                seen.add(field);
                out.push({ method, path: template, field, send: (bad) => ({ url: fill(template, {}), body: bodyWith(segments, `a${bad}b`) }) });
            }
        }
    }
    return out;
}
let fx;
beforeAll(async () => {
    fx = await (0, fixture_1.startManagement)('mgmt-uncarriable');
});
afterAll(async () => {
    await fx?.close();
});
const all = cases();
const bodyCases = all.filter((c) => c.send('').body !== undefined);
describe('strings no store or header can carry are a 400 naming the field (issue 27, item 8)', () => {
    it('the document yields cases for every write route with a body', () => {
        const writes = Object.entries(doc.paths).flatMap(([p, item]) => ['post', 'patch'].filter((m) => item[m]?.requestBody).map((m) => `${m} ${p}`));
        expect(new Set(bodyCases.map((c) => `${c.method} ${c.path}`))).toEqual(new Set(writes));
        expect(bodyCases.length).toBeGreaterThan(40);
    });
    it.each(all.map((c) => [`${c.method.toUpperCase()} ${c.path} ${c.field}`, c]))('U+0000 in %s', async (_name, c) => {
        const { url, body } = c.send('\u0000');
        // raw: every write of the document by its path, with a string no store can carry
        const res = await fx.api(c.method, url, body);
        expect(res.status).toBe(400);
        expect(res.body.errors).toContainEqual({ field: c.field, message: string_safety_1.UNCARRIABLE_MESSAGE });
    });
    // a lone surrogate has no percent-encoding (no UTF-8 form): it can only arrive in a JSON body
    it.each(bodyCases.map((c) => [`${c.method.toUpperCase()} ${c.path} ${c.field}`, c]))('lone surrogates in %s', async (_name, c) => {
        for (const bad of ['\ud800', '\udc00', '\ud83d\ud83d']) {
            // raw: every write of the document by its path, with a lone surrogate
            const res = await fx.api(c.method, c.send(bad).url, c.send(bad).body);
            expect(res.status).toBe(400);
            expect(res.body.errors).toContainEqual({ field: c.field, message: string_safety_1.UNCARRIABLE_MESSAGE });
        }
    });
    it('a well-formed pair (an emoji) is a character like any other', async () => {
        const created = await (0, client_1.must)(fx.client.POST('/v1/endpoints', { body: { name: 'orders \ud83d\udce6' } }));
        expect(created.name).toBe('orders 📦');
    });
    it('a field name with U+0000 is refused too, naming where it is', async () => {
        // raw: a body field name the document has no place for
        const res = await fx.api('post', '/v1/endpoints', { name: 'x', 'na\u0000me': 'y' });
        expect(res.status).toBe(400);
        expect(res.body.errors).toContainEqual({ field: '(body)', message: string_safety_1.UNCARRIABLE_KEY_MESSAGE });
    });
});
//# sourceMappingURL=uncarriable-strings.test.js.map