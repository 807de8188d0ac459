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
exports.MIB = exports.HugeResponseServer = exports.GIB = void 0;
exports.residentBytes = residentBytes;
const node_fs_1 = require("node:fs");
const http = __importStar(require("node:http"));
const node_zlib_1 = require("node:zlib");
exports.GIB = 1024 ** 3;
const MEMBER_INFLATED = 16 * 1024 * 1024;
const GZIP_MEMBER = (0, node_zlib_1.gzipSync)(Buffer.alloc(MEMBER_INFLATED), { level: 9 });
const CHUNK = Buffer.alloc(64 * 1024, 'a');
/**
 * A loopback destination whose answer is far larger than any client should read: the bytes are
 * generated as the socket drains (never held), and writing stops as soon as the client goes
 * away. `sent` counts the bytes that were written, so a test can show the client stopped
 * reading instead of draining the whole answer.
 */
class HugeResponseServer {
    server;
    opts;
    sent = 0;
    requests = 0;
    constructor(server, opts) {
        this.server = server;
        this.opts = opts;
        server.on('request', (req, res) => {
            req.resume();
            req.on('end', () => this.answer(res));
        });
    }
    static async start(opts = {}) {
        const server = http.createServer();
        await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
        return new HugeResponseServer(server, opts);
    }
    answerWith(opts) {
        this.opts = opts;
        this.sent = 0;
    }
    url(path = '/hook') {
        return `http://127.0.0.1:${this.server.address().port}${path}`;
    }
    answer(res) {
        this.requests += 1;
        const { status = 200, bytes = exports.GIB, encoding = 'identity', declareLength = false, contentType = 'application/json' } = this.opts;
        const headers = { 'content-type': contentType };
        if (encoding === 'gzip')
            headers['content-encoding'] = 'gzip';
        else if (declareLength)
            headers['content-length'] = bytes;
        res.writeHead(status, headers);
        const chunk = encoding === 'gzip' ? GZIP_MEMBER : CHUNK;
        const perChunk = encoding === 'gzip' ? MEMBER_INFLATED : CHUNK.length;
        let left = Math.ceil(bytes / perChunk);
        let closed = false;
        res.on('close', () => (closed = true));
        const pump = () => {
            while (!closed && left > 0) {
                left -= 1;
                this.sent += chunk.length;
                if (!res.write(chunk))
                    return void res.once('drain', pump);
            }
            if (!closed)
                res.end();
        };
        pump();
    }
    async close() {
        this.server.closeAllConnections();
        await new Promise((resolve) => this.server.close(() => resolve()));
    }
}
exports.HugeResponseServer = HugeResponseServer;
/** Resident set size of a process in bytes, from /proc (Linux): `VmRSS` now, `VmHWM` its peak. */
function residentBytes(pid = 'self') {
    const status = (0, node_fs_1.readFileSync)(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
exports.MIB = 1024 * 1024;
//# sourceMappingURL=huge-response.js.map