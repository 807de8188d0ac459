"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChaosReceiver = void 0;
const node_http_1 = __importDefault(require("node:http"));
/**
 * The webhook target of the chaos run: records every request it gets — the event's number
 * from the body, X-Relay-Event-Id, X-Relay-Delivery-Id, X-Relay-Attempt — and answers 200,
 * except the first attempt of every `failFirstEvery`-th event, which gets 503: those sit in a
 * retry tier, and some of them across the broker restart.
 */
class ChaosReceiver {
    failFirstEvery;
    arrivals = [];
    /** event number → arrivals answered 2xx */
    delivered = new Map();
    /** requests whose body carried no event number (must stay 0) */
    unreadable = 0;
    server;
    constructor(failFirstEvery) {
        this.failFirstEvery = failFirstEvery;
        this.server = node_http_1.default.createServer((req, res) => {
            const chunks = [];
            req.on('data', (c) => chunks.push(c));
            req.on('end', () => {
                const n = numberOf(Buffer.concat(chunks));
                const attempt = Number(req.headers['x-relay-attempt']);
                if (n === null) {
                    this.unreadable += 1;
                    res.writeHead(400).end();
                    return;
                }
                const status = this.failsFirst(n) && attempt === 1 ? 503 : 200;
                this.arrivals.push({ n, eventId: String(req.headers['x-relay-event-id']), deliveryId: String(req.headers['x-relay-delivery-id']), attempt, at: Date.now(), status });
                if (status === 200)
                    this.delivered.set(n, (this.delivered.get(n) ?? 0) + 1);
                res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'try again');
            });
        });
    }
    failsFirst(n) {
        return this.failFirstEvery > 0 && n % this.failFirstEvery === 0;
    }
    async start() {
        await new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
        return `http://127.0.0.1:${this.server.address().port}/hook`;
    }
    async close() {
        this.server.closeAllConnections();
        await new Promise((resolve) => this.server.close(() => resolve()));
    }
}
exports.ChaosReceiver = ChaosReceiver;
function numberOf(body) {
    try {
        const n = JSON.parse(body.toString('utf8')).n;
        return typeof n === 'number' && Number.isInteger(n) ? n : null;
    }
    catch {
        return null;
    }
}
//# sourceMappingURL=receiver.js.map