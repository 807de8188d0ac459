"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.TcpProxy = void 0;
const node_net_1 = __importDefault(require("node:net"));
/**
 * A TCP proxy on 127.0.0.1 in front of a real server, so a test can cut a service's
 * connection (close every socket and refuse new ones) or black-hole it (accept, forward
 * nothing) without stopping the shared server, then restore it.
 */
class TcpProxy {
    targetHost;
    targetPort;
    server = null;
    sockets = new Set();
    mode = 'forward';
    port = 0;
    constructor(targetHost, targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }
    async start(port = 0) {
        this.server = node_net_1.default.createServer((client) => this.accept(client));
        await new Promise((resolve, reject) => {
            this.server.once('error', reject);
            this.server.listen(port, '127.0.0.1', () => resolve());
        });
        this.port = this.server.address().port;
        return this.port;
    }
    /** Closes every connection and stops listening: the server looks down. */
    async cut() {
        for (const s of this.sockets)
            s.destroy();
        this.sockets.clear();
        const server = this.server;
        this.server = null;
        if (server)
            await new Promise((resolve) => server.close(() => resolve()));
    }
    /** Keeps connections open but drops every byte in both directions. */
    blackhole() {
        this.mode = 'blackhole';
    }
    /** Listens again on the same port and forwards. */
    async restore() {
        this.mode = 'forward';
        if (!this.server)
            await this.start(this.port);
    }
    async stop() {
        await this.cut();
    }
    accept(client) {
        const upstream = node_net_1.default.connect(this.targetPort, this.targetHost);
        this.sockets.add(client);
        this.sockets.add(upstream);
        const drop = () => {
            client.destroy();
            upstream.destroy();
            this.sockets.delete(client);
            this.sockets.delete(upstream);
        };
        client.on('data', (d) => this.mode === 'forward' && upstream.write(d));
        upstream.on('data', (d) => this.mode === 'forward' && client.write(d));
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
    }
}
exports.TcpProxy = TcpProxy;
//# sourceMappingURL=tcp-proxy.js.map