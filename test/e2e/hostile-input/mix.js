"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MIX = void 0;
exports.pickGenerator = pickGenerator;
const payload_classes_1 = require("./payload-classes");
const protocol_classes_1 = require("./protocol-classes");
/**
 * How the run is mixed: each generator with its share of the requests (percent). Classes that
 * move megabytes (overlong bodies, 1 MB query strings, chunked bodies over the ceiling) have
 * small shares, so 10,000 requests stay within about two minutes on two cores. Stalled senders
 * are not in the mix: a fixed number of them run beside it (runner.ts).
 */
exports.MIX = [
    [13, payload_classes_1.invalidJson],
    [2, payload_classes_1.overlongBody],
    [7, payload_classes_1.deepNesting],
    [5, payload_classes_1.hugeKeyCounts],
    [11, payload_classes_1.xmlEntities],
    [10, payload_classes_1.badBase64],
    [3, protocol_classes_1.queryStrings],
    [9, protocol_classes_1.oversizedHeaders],
    [6, protocol_classes_1.malformedHeaders],
    [10, protocol_classes_1.percentEncodingPaths],
    [8, protocol_classes_1.oddMethods],
    [5, protocol_classes_1.contentLengthLies],
    [4, protocol_classes_1.chunkedBodies],
    [1, protocol_classes_1.slowBodies],
    [6, payload_classes_1.protoKeys],
];
function pickGenerator(ctx) {
    const total = exports.MIX.reduce((s, [w]) => s + w, 0);
    let r = ctx.rng.next() * total;
    for (const [w, g] of exports.MIX) {
        if ((r -= w) < 0)
            return g;
    }
    return exports.MIX[exports.MIX.length - 1][1];
}
//# sourceMappingURL=mix.js.map