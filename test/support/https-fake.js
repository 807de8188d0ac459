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
exports.startHttpsFake = startHttpsFake;
const https = __importStar(require("node:https"));
const selfsigned_1 = require("selfsigned");
const targets_1 = require("@relay/targets");
const fake_platform_1 = require("./fake-platform");
async function startHttpsFake(platform, realHosts, app) {
    // a subject of its own: trusted together (NODE_EXTRA_CA_CERTS), same-named anchors would shadow each other
    const pems = (0, selfsigned_1.generate)([{ name: 'commonName', value: `relay test fake ${platform}` }], {
        keySize: 2048,
        algorithm: 'sha256',
        days: 1,
        // the real host names too, so a deliverer process routed here (HOST_ROUTES) verifies TLS for them
        extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, ...realHosts.map((value) => ({ type: 2, value }))] }],
    });
    const server = https.createServer({ key: pems.private, cert: pems.cert }, app);
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
    });
    const baseUrl = `https://127.0.0.1:${server.address().port}`;
    const agent = (0, targets_1.createSsrfAgents)({ allowCidrs: ['127.0.0.1/32'], ca: pems.cert });
    const port = server.address().port;
    return {
        baseUrl,
        ca: pems.cert,
        routes: realHosts.map((h) => `${h}=127.0.0.1:${port}`),
        send: (req, opts = {}) => (0, targets_1.sendRequest)({ ...req, url: (0, fake_platform_1.rewriteToFake)(platform, realHosts, req.url, baseUrl) }, { timeoutMs: 5_000, agent, ...opts }),
        close: () => {
            agent.https.destroy();
            server.closeAllConnections();
            return new Promise((resolve) => server.close(() => resolve()));
        },
    };
}
//# sourceMappingURL=https-fake.js.map