"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.freePort = freePort;
exports.startService = startService;
exports.bootstrapAccount = bootstrapAccount;
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_net_1 = __importDefault(require("node:net"));
const node_path_1 = __importDefault(require("node:path"));
const infra_1 = require("./infra");
const ROOT = node_path_1.default.resolve(__dirname, '../..');
/**
 * The deliverers are one program, services/deliverer, run once per channel (docs/architecture.md
 * "Deliverers"): a deployment's name picks its DELIVERY_CHANNEL, as compose and Kubernetes do.
 */
const PROGRAMS = {
    'webhook-deliverer': { program: 'deliverer', env: { DELIVERY_CHANNEL: 'webhook' } },
    'chat-deliverer': { program: 'deliverer', env: { DELIVERY_CHANNEL: 'chat' } },
    'outputs-deliverer': { program: 'deliverer', env: { DELIVERY_CHANNEL: 'outputs' } },
};
/**
 * A port no one is listening on, chosen below the kernel's ephemeral range: a port the kernel
 * handed out (listen(0)) can be handed out again as the source port of any outbound connection
 * on the machine before the service binds it — a fresh CI machine hit exactly that.
 */
async function freePort() {
    const low = ephemeralLow() - 1;
    for (let tries = 0; tries < 50; tries++) {
        const port = 20000 + Math.floor(Math.random() * (low - 20000));
        if (await canListen(port))
            return port;
    }
    throw new Error('no free port found below the ephemeral range in 50 tries');
}
function ephemeralLow() {
    try {
        const [low] = (0, node_fs_1.readFileSync)('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
        const n = Number(low);
        return Number.isInteger(n) && n > 21000 ? n : 32768;
    }
    catch {
        return 32768;
    }
}
function canListen(port) {
    return new Promise((resolve) => {
        const server = node_net_1.default.createServer();
        server.once('error', () => resolve(false));
        server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
}
/**
 * Starts a built service (`services/<name>/dist/main.js`, or the deliverer program on the name's channel) as its own process with only the
 * environment given, and waits until its /readyz answers 200 — i.e. every dependency
 * completed a handshake. `npm test` builds before running the e2e tier.
 */
async function startService(name, env) {
    // two test processes can still pick the same free port at the same moment: the loser retries with new ones
    for (let attempt = 1;; attempt++) {
        try {
            return await startServiceOnce(name, env);
        }
        catch (err) {
            if (attempt >= 3 || !/EADDRINUSE/.test(err.message))
                throw err;
        }
    }
}
async function startServiceOnce(name, env) {
    const port = await freePort();
    // the gateway and the API serve HTTP on PORT and health and metrics on HEALTH_PORT; the others only the latter
    const twoPorts = name === 'ingest-gateway' || name === 'management-api';
    const healthPort = twoPorts ? await freePort() : port;
    const ports = twoPorts ? { PORT: String(port), HEALTH_PORT: String(healthPort) } : { HEALTH_PORT: String(port) };
    const program = PROGRAMS[name];
    const child = (0, node_child_process_1.spawn)(process.execPath, [node_path_1.default.join(ROOT, 'services', program?.program ?? name, 'dist', 'main.js')], {
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '3000', HOST: '127.0.0.1', ...program?.env, ...env, ...ports },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d.toString()));
    child.stderr.on('data', (d) => (out += d.toString()));
    const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    const url = `http://127.0.0.1:${port}`;
    const healthUrl = `http://127.0.0.1:${healthPort}`;
    const svc = {
        name,
        process: child,
        port,
        url,
        healthUrl,
        output: () => out,
        async stop(signal = 'SIGTERM') {
            if (child.exitCode !== null || child.signalCode !== null)
                return child.exitCode;
            child.kill(signal);
            return exited;
        },
    };
    try {
        const state = await (0, infra_1.eventually)(async () => {
            // a service that exited will never be ready: stop waiting at once
            if (child.exitCode !== null)
                return 'exited';
            const res = await fetch(`${healthUrl}/readyz`).catch(() => null);
            return res?.status === 200 ? 'ready' : null;
        }, 30000, `${name} to be ready`);
        if (state === 'exited')
            throw new Error(`${name} exited with ${child.exitCode} before it was ready`);
    }
    catch (err) {
        await svc.stop('SIGKILL');
        throw new Error(`${err.message}\n--- ${name} output ---\n${out}`);
    }
    return svc;
}
/** Runs the management API's bootstrap command and returns what it printed. */
async function bootstrapAccount(env, args = []) {
    const child = (0, node_child_process_1.spawn)(process.execPath, [node_path_1.default.join(ROOT, 'services', 'management-api', 'dist', 'bootstrap.js'), ...args], {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d.toString()));
    child.stderr.on('data', (d) => (err += d.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    if (code !== 0)
        throw new Error(`bootstrap failed (${code}): ${err}`);
    return JSON.parse(out.trim());
}
//# sourceMappingURL=services.js.map