"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.npxRelay = npxRelay;
exports.runRelay = runRelay;
exports.relayListen = relayListen;
const node_child_process_1 = require("node:child_process");
const node_path_1 = __importDefault(require("node:path"));
const infra_1 = require("./infra");
const ROOT = node_path_1.default.resolve(__dirname, '../..');
/** Starts `npx relay <args>` from the repository, with only PATH, HOME and `env` in its environment. */
function npxRelay(args, env) {
    const child = (0, node_child_process_1.spawn)('npx', ['relay', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d.toString()));
    child.stderr.on('data', (d) => (err += d.toString()));
    const exited = new Promise((resolve) => child.once('exit', () => resolve()));
    return {
        child,
        stdout: () => out,
        stderr: () => err,
        async kill(signal) {
            if (child.exitCode !== null || child.signalCode !== null)
                return;
            try {
                process.kill(-child.pid, signal);
            }
            catch {
                // already gone
            }
            await exited;
        },
    };
}
/** Runs `npx relay …` to its end. */
async function runRelay(args, env) {
    const p = npxRelay(args, env);
    const code = await new Promise((resolve) => p.child.once('exit', resolve));
    return { code, stdout: p.stdout(), stderr: p.stderr() };
}
/** `npx relay listen …`, resolved once its session is open (the CLI says "Listening on"). */
async function relayListen(args, env) {
    const p = npxRelay(['listen', ...args], env);
    const state = await (0, infra_1.eventually)(async () => (p.child.exitCode !== null ? 'exited' : p.stderr().includes('Listening on') && 'listening'), 60_000, 'relay listen to connect').catch((err) => err);
    if (state !== 'listening') {
        await p.kill('SIGKILL');
        throw new Error(`relay listen did not connect (${state instanceof Error ? state.message : `exited with ${p.child.exitCode}`})\n--- relay stderr ---\n${p.stderr()}`);
    }
    return p;
}
//# sourceMappingURL=relay-cli.js.map