"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.TestReceiver = void 0;
const http = __importStar(require("node:http"));
const https = __importStar(require("node:https"));
const selfsigned_1 = require("selfsigned");
/**
 * A local capture server standing in for a webhook receiver (svix tests/it/utils
 * `TestReceiver`): listens on 127.0.0.1, an ephemeral port, records every request
 * (method, headers, raw body) and answers with a configurable response (default 200).
 */
class TestReceiver {
    server;
    scheme;
    requests = [];
    responder = () => ({ status: 200, body: 'ok' });
    waiters = [];
    constructor(server, scheme) {
        this.server = server;
        this.scheme = scheme;
        server.on('request', (req, res) => {
            const chunks = [];
            req.on('data', (c) => chunks.push(c));
            req.on('end', () => {
                const captured = {
                    method: req.method ?? '',
                    url: req.url ?? '',
                    headers: req.headers,
                    rawHeaders: req.rawHeaders,
                    body: Buffer.concat(chunks),
                };
                this.requests.push(captured);
                const answer = this.responder(captured);
                res.writeHead(answer.status, answer.headers ?? {});
                res.end(answer.body ?? '');
                this.waiters.splice(0).forEach((w) => w());
            });
        });
    }
    /** A plain-HTTP receiver. */
    static start() {
        return TestReceiver.listen(new TestReceiver(http.createServer(), 'http'));
    }
    /** An HTTPS receiver with a freshly generated self-signed certificate for 127.0.0.1/localhost. */
    static startHttps() {
        const pems = (0, selfsigned_1.generate)([{ name: 'commonName', value: 'localhost' }], {
            keySize: 2048,
            algorithm: 'sha256',
            days: 1,
            extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
        });
        return TestReceiver.listen(new TestReceiver(https.createServer({ key: pems.private, cert: pems.cert }), 'https'));
    }
    static listen(r) {
        return new Promise((resolve, reject) => {
            r.server.once('error', reject);
            r.server.listen(0, '127.0.0.1', () => resolve(r));
        });
    }
    get port() {
        return this.server.address().port;
    }
    /** e.g. `http://127.0.0.1:41234/hook` */
    url(path = '/hook') {
        return `${this.scheme}://127.0.0.1:${this.port}${path}`;
    }
    respondWith(answer) {
        this.responder = typeof answer === 'function' ? answer : () => answer;
    }
    /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
    async waitForRequests(count, timeoutMs = 2000) {
        const deadline = Date.now() + timeoutMs;
        while (this.requests.length < count) {
            const left = deadline - Date.now();
            if (left <= 0)
                throw new Error(`receiver got ${this.requests.length} of ${count} requests in ${timeoutMs} ms`);
            await new Promise((resolve) => {
                const t = setTimeout(resolve, left);
                this.waiters.push(() => {
                    clearTimeout(t);
                    resolve();
                });
            });
        }
        return this.requests.slice(0, count);
    }
    async close() {
        this.server.closeAllConnections();
        await new Promise((resolve) => this.server.close(() => resolve()));
    }
}
exports.TestReceiver = TestReceiver;
//# sourceMappingURL=receiver.js.map