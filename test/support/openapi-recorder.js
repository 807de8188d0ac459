"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.recordingResponses = recordingResponses;
exports.failOnMismatches = failOnMismatches;
const openapi_check_1 = require("./openapi-check");
/**
 * Wraps the management API's request listener so that every response it sends is checked
 * against the OpenAPI document as it is sent (support/openapi-check.ts). What does not match is
 * kept until the end of the running test, which then fails naming each response
 * (`failOnMismatches`, registered by the integration fixture).
 */
const mismatches = [];
function recordingResponses(listener) {
    return (req, res) => {
        // express rewrites req.url while a mounted router handles it: keep the one that arrived
        const url = req.url ?? '/';
        const chunks = [];
        const keep = (chunk, encoding) => {
            if (typeof chunk === 'string')
                chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8'));
            else if (chunk instanceof Uint8Array)
                chunks.push(Buffer.from(chunk));
        };
        const write = res.write.bind(res);
        const end = res.end.bind(res);
        res.write = ((chunk, ...rest) => {
            keep(chunk, rest[0]);
            return write(chunk, ...rest);
        });
        res.end = ((chunk, ...rest) => {
            if (typeof chunk !== 'function')
                keep(chunk, rest[0]);
            const contentType = res.getHeader('content-type');
            const found = (0, openapi_check_1.checkResponse)({
                method: req.method ?? 'GET',
                url,
                status: res.statusCode,
                contentType: contentType === undefined ? undefined : String(contentType),
                text: req.method === 'HEAD' ? '' : Buffer.concat(chunks).toString('utf8'),
            });
            mismatches.push(...found);
            return end(chunk, ...rest);
        });
        listener(req, res);
    };
}
/** Throws (failing the test that ran) if a response since the last call departed from the document. */
function failOnMismatches() {
    const found = mismatches.splice(0);
    if (found.length > 0)
        throw new Error(`responses that do not match the OpenAPI document (services/management-api/src/openapi):\n  ${found.join('\n  ')}`);
}
//# sourceMappingURL=openapi-recorder.js.map