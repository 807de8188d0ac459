"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.encodeHead = encodeHead;
exports.encodeRequest = encodeRequest;
exports.chunked = chunked;
exports.oneShot = oneShot;
function encodeHead(shape, extraHeaders = []) {
    const lines = [`${shape.method} ${shape.target} ${shape.version ?? 'HTTP/1.1'}`, 'Host: 127.0.0.1'];
    if (shape.close !== false)
        lines.push('Connection: close');
    lines.push(...shape.headers, ...extraHeaders);
    return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}
/** Head and body framed as the shape says, in one part, the sender waiting for the answer. */
function encodeRequest(shape) {
    const body = shape.body;
    const framing = shape.framing ?? (body ? 'length' : 'none');
    if (framing === 'none')
        return Buffer.concat([encodeHead(shape), body ?? Buffer.alloc(0)]);
    if (framing === 'length')
        return Buffer.concat([encodeHead(shape, [`Content-Length: ${body?.length ?? 0}`]), body ?? Buffer.alloc(0)]);
    return Buffer.concat([encodeHead(shape, ['Transfer-Encoding: chunked']), chunked(body ?? Buffer.alloc(0), framing.chunkSize)]);
}
function chunked(body, chunkSize) {
    const parts = [];
    for (let at = 0; at < body.length; at += chunkSize) {
        const piece = body.subarray(at, at + chunkSize);
        parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
    }
    parts.push(Buffer.from('0\r\n\r\n'));
    return Buffer.concat(parts);
}
/** Everything at once, then wait for the answer. */
function oneShot(bytes) {
    return { parts: [{ bytes }], after: 'wait' };
}
//# sourceMappingURL=request.js.map