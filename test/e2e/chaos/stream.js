"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.runStream = runStream;
const node_http_1 = __importDefault(require("node:http"));
/**
 * An open-loop stream of uniquely numbered events (`{"n":<number>}`) to the gateway: event n
 * is sent at start + n/rate whatever happened to the ones before — a sender that does not slow
 * down when Relay has trouble, which is what webhook sources are. Keep-alive connections.
 */
async function runStream(opts) {
    const agent = new node_http_1.default.Agent({ keepAlive: true, maxSockets: opts.maxInFlight });
    const sent = new Array(opts.events);
    let next = 0;
    let inFlight = 0;
    let maxLagMs = 0;
    const startedAt = Date.now();
    const interval = 1000 / opts.rate;
    let finish = () => undefined;
    const finished = new Promise((resolve) => (finish = resolve));
    let answered = 0;
    const send = (n) => {
        const record = { n, sentAt: Date.now(), answeredAt: 0, status: 0 };
        sent[n] = record;
        inFlight += 1;
        const body = JSON.stringify({ n });
        let settled = false;
        const done = () => {
            if (settled)
                return;
            settled = true;
            inFlight -= 1;
            answered += 1;
            if (answered === opts.events)
                finish();
        };
        const req = node_http_1.default.request({ host: opts.host, port: opts.port, path: opts.path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
            record.answeredAt = Date.now();
            record.status = res.statusCode ?? 0;
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => {
                if (record.status !== 202) {
                    try {
                        record.code = JSON.parse(Buffer.concat(chunks).toString('utf8')).code;
                    }
                    catch {
                        record.code = 'unparseable body';
                    }
                }
                done();
            });
            res.on('error', (err) => {
                record.error = err.message;
                done();
            });
        });
        req.setTimeout(opts.answerBoundMs, () => req.destroy(new Error('timeout')));
        req.on('error', (err) => {
            record.error = err.message;
            if (record.answeredAt === 0)
                record.status = 0;
            done();
        });
        req.end(body);
    };
    const timer = setInterval(() => {
        const now = Date.now();
        while (next < opts.events && startedAt + next * interval <= now && inFlight < opts.maxInFlight) {
            maxLagMs = Math.max(maxLagMs, now - (startedAt + next * interval));
            send(next++);
        }
        opts.onTick?.(next);
        if (next >= opts.events)
            clearInterval(timer);
    }, 5);
    if (opts.events === 0)
        finish();
    await finished;
    clearInterval(timer);
    agent.destroy();
    return { sent, startedAt, endedAt: Date.now(), maxLagMs };
}
//# sourceMappingURL=stream.js.map