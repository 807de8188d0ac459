"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runHostile = runHostile;
const cases_1 = require("./cases");
const mix_1 = require("./mix");
const oracle_1 = require("./oracle");
const protocol_classes_1 = require("./protocol-classes");
const raw_http_1 = require("./raw-http");
/** Sends `total` generated requests, `concurrency` at a time, and judges every answer. */
async function runHostile(ctx, opts) {
    const byClass = {};
    for (const c of cases_1.CLASSES)
        byClass[c] = { sent: 0, failed: 0, failures: [], outcomes: {}, slowestMs: 0 };
    const started = Date.now();
    let index = 0;
    const exchange = async (c, i) => {
        const bound = c.stalls ? opts.stallBoundMs : opts.answerBoundMs;
        const result = await (0, raw_http_1.rawExchange)(c.plan, { host: opts.host, port: opts.port, boundMs: bound, closeGraceMs: opts.closeGraceMs, head: c.head });
        record(byClass[c.cls], c, i, result);
    };
    // stalled senders first, so their wait overlaps the mix instead of adding to it
    const stalled = [];
    for (let s = 0; s < opts.stalls; s++)
        stalled.push(exchange((0, protocol_classes_1.stalledRequest)(ctx), index++));
    const mixTotal = Math.max(0, opts.total - opts.stalls);
    let next = 0;
    const tick = setInterval(() => opts.onTick?.(), 250);
    const worker = async () => {
        while (next < mixTotal) {
            next++;
            // generated when sent, in one order: the seed reproduces the run (timestamps in signatures stay fresh)
            const c = (0, mix_1.pickGenerator)(ctx)(ctx);
            await exchange(c, index++);
        }
    };
    try {
        await Promise.all([...Array.from({ length: opts.concurrency }, worker), ...stalled]);
    }
    finally {
        clearInterval(tick);
    }
    return { byClass, sent: index, elapsedMs: Date.now() - started };
}
const KEPT_KINDS = 20;
function record(report, c, index, result) {
    report.sent++;
    const outcome = result.timedOut ? 'hang' : result.responses.length === 0 ? 'closed' : result.responses.map((r) => r.status).join('+');
    report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
    if (result.answerMs !== null)
        report.slowestMs = Math.max(report.slowestMs, result.answerMs);
    const problem = (0, oracle_1.judge)(result, c.expect, c.head);
    if (!problem)
        return;
    report.failed++;
    const kind = `${c.what} => ${problem}`.replace(/\d+/g, 'N');
    const alike = report.failures.find((f) => `${f.what} => ${f.problem}`.replace(/\d+/g, 'N') === kind);
    if (alike)
        alike.alike++;
    else if (report.failures.length < KEPT_KINDS)
        report.failures.push({ index, what: c.what, problem, sent: JSON.stringify(c.plan.parts[0].bytes.subarray(0, 120).toString('latin1')), alike: 1 });
}
//# sourceMappingURL=runner.js.map