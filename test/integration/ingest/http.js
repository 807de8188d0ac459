"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.send = send;
exports.deliveredBody = deliveredBody;
/** One request to a gateway's ingest URL; JSON content type unless told otherwise. */
async function send(gateway, endpointId, init = {}) {
    const method = init.method ?? 'POST';
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const res = await fetch(`${gateway.url}/relay/${endpointId}${init.query !== undefined ? `?${init.query}` : ''}`, {
        method,
        headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...init.headers },
        body: hasBody ? (init.body ?? '{}') : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}
/** The bytes a webhook target would receive, from a published delivery. */
function deliveredBody(d) {
    return Buffer.from(d.payload.body_base64, 'base64').toString('utf8');
}
//# sourceMappingURL=http.js.map