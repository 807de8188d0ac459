"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ACCEPTED = exports.only = exports.ANY = exports.CLASSES = exports.MAX_BODY = exports.PLAN_LIMIT = void 0;
exports.bodyRequest = bodyRequest;
exports.defaultType = defaultType;
exports.jsonValid = jsonValid;
exports.randomJson = randomJson;
exports.randomText = randomText;
exports.randomJsonBytes = randomJsonBytes;
const oracle_1 = require("./oracle");
const request_1 = require("./request");
/** The gateway's defaults the expectations are computed from (docs/configuration.md). */
exports.PLAN_LIMIT = 262144;
exports.MAX_BODY = 1048576;
/** The classes of issue 9's "standing hostile-input suite", one name each (docs/security.md). */
exports.CLASSES = [
    'invalid-json',
    'overlong-body',
    'deep-nesting',
    'huge-key-counts',
    'xml-entities-doctype',
    'bad-base64',
    'query-strings',
    'oversized-headers',
    'malformed-headers',
    'percent-encoding-paths',
    'odd-methods',
    'content-length-lies',
    'chunked-bodies',
    'slow-bodies',
    'proto-keys',
];
exports.ANY = { statuses: oracle_1.DESIGNED_STATUSES };
const only = (status, ...codes) => ({ statuses: [status], ...(codes.length ? { codes } : {}) });
exports.only = only;
exports.ACCEPTED = { statuses: [202] };
/**
 * One request to an endpoint with a payload, credentials for the endpoint's auth mode and the
 * expected answer. Processing order (docs/ingest.md): a body over MAX_BODY_BYTES is 413 before
 * authentication; bad credentials are 401 before the payload is read.
 */
function bodyRequest(ctx, r) {
    const { rng, roster } = ctx;
    const valid = r.authValid ?? rng.bool(0.9);
    const credentials = roster.credentials(r.role, r.body, valid, rng.int(0, 1));
    const headers = [...(r.contentType === null ? [] : [`Content-Type: ${r.contentType ?? defaultType(roster.format(r.role))}`]), ...credentials, ...(r.headers ?? [])];
    const method = r.method ?? 'POST';
    const shape = { method, target: `/relay/${roster.id[r.role]}${r.query !== undefined ? `?${r.query}` : ''}`, headers, body: r.body, framing: r.framing };
    const refusedAuth = roster.authenticated(r.role) && !valid && r.body.length <= exports.MAX_BODY;
    return {
        cls: r.cls,
        what: `${method} ${r.role}: ${r.what}${roster.authenticated(r.role) ? (valid ? ', valid credentials' : ', bad credentials') : ''}`,
        plan: (0, request_1.oneShot)((0, request_1.encodeRequest)(shape)),
        head: method === 'HEAD',
        expect: refusedAuth ? (0, exports.only)(401, 'auth_failed') : r.expect,
    };
}
function defaultType(format) {
    switch (format) {
        case 'json':
            return 'application/json';
        case 'form':
            return 'application/x-www-form-urlencoded';
        case 'xml':
            return 'application/xml';
        case 'text':
            return 'text/plain';
        default:
            return 'application/octet-stream';
    }
}
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** The documented JSON rule (payload-formats.md): one UTF-8 JSON document, a leading BOM ignored. */
function jsonValid(bytes) {
    try {
        JSON.parse(strictUtf8.decode(bytes));
        return true;
    }
    catch {
        return false;
    }
}
/** A random JSON value, shallow (depth ≤ 4), with unicode, escapes and every type. */
function randomJson(rng, depth = 0) {
    const kind = rng.int(0, depth >= 3 ? 4 : 6);
    switch (kind) {
        case 0:
            return rng.int(-1e6, 1e6) / (rng.bool() ? 1 : 7);
        case 1:
            return rng.pick([true, false, null]);
        case 2:
        case 3:
            return randomText(rng, rng.int(0, 24));
        case 4:
            return rng.int(0, 1e9);
        case 5: {
            const a = [];
            for (let i = rng.int(0, 5); i > 0; i--)
                a.push(randomJson(rng, depth + 1));
            return a;
        }
        default: {
            const o = {};
            for (let i = rng.int(0, 6); i > 0; i--)
                o[randomText(rng, rng.int(1, 10))] = randomJson(rng, depth + 1);
            return o;
        }
    }
}
const TEXT_ALPHABET = 'abcXYZ019 _-"\\/\t\n\u00e9\u20ac\u{1F600}\u2028\u0000<>&';
function randomText(rng, n) {
    return Array.from(rng.chars(n, TEXT_ALPHABET)).join('');
}
/** A JSON document as bytes, an object at the root, with random insignificant whitespace. */
function randomJsonBytes(rng) {
    const o = { event: rng.pick(['order.created', 'ping', 'x']), data: randomJson(rng) };
    return Buffer.from(JSON.stringify(o, null, rng.pick([0, 0, 1, 2])));
}
//# sourceMappingURL=cases.js.map