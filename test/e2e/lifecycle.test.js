"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const client_1 = require("@relay/client");
const node_child_process_1 = require("node:child_process");
const node_path_1 = __importDefault(require("node:path"));
const services_1 = require("../support/services");
const stack_1 = require("./stack");
let stack;
beforeAll(async () => {
    stack = await (0, stack_1.startStack)('lifecycle', { only: ['management-api', 'activity-writer'] });
});
afterAll(() => stack?.stop());
describe('service lifecycle', () => {
    it('SIGTERM: the gateway finishes the requests in flight (all 202), then exits 0', async () => {
        const gateway = await (0, services_1.startService)('ingest-gateway', stack.env);
        const endpoint = await (0, client_1.must)(stack.client.POST('/v1/endpoints', { body: { name: 'drain' } }));
        const post = () => fetch(`${gateway.url}/relay/${endpoint.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' }).then((r) => r.status);
        expect(await post()).toBe(202); // warm the endpoint cache
        const inFlight = Array.from({ length: 20 }, post);
        await new Promise((r) => setTimeout(r, 5));
        const exited = gateway.stop('SIGTERM');
        const statuses = await Promise.allSettled(inFlight);
        expect(await exited).toBe(0);
        const answered = statuses.filter((s) => s.status === 'fulfilled').map((s) => s.value);
        expect(answered.length).toBeGreaterThan(0);
        expect(answered.every((s) => s === 202)).toBe(true);
        expect(gateway.output()).toContain('shutdown complete');
    });
    it('SIGTERM: a deliverer and the activity-writer stop consuming and exit 0', async () => {
        const deliverer = await (0, services_1.startService)('webhook-deliverer', stack.env);
        expect(await deliverer.stop('SIGTERM')).toBe(0);
        const writer = stack.services['activity-writer'];
        expect(await writer.stop('SIGTERM')).toBe(0);
        delete stack.services['activity-writer'];
    });
    it('a service with a bad environment exits 1 and lists every problem at once', async () => {
        const child = (0, node_child_process_1.spawn)(process.execPath, [node_path_1.default.resolve(__dirname, '../../services/ingest-gateway/dist/main.js')], {
            env: { PATH: process.env.PATH ?? '', PORT: 'eighty', RABBITMQ_URL: 'http://wrong', PUBLISH_CONFIRM_TIMEOUT_MS: '1', SECRETS_KEYS: 'k:x' },
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d) => (out += d.toString()));
        child.stderr.on('data', (d) => (out += d.toString()));
        const code = await new Promise((resolve) => child.once('exit', resolve));
        expect(code).toBe(1);
        expect(out).toMatch(/PORT: expected an integer/);
        expect(out).toMatch(/RABBITMQ_URL: URL scheme must be one of amqp:, amqps:/);
        expect(out).toMatch(/PUBLISH_CONFIRM_TIMEOUT_MS: must be >= 50/);
        expect(out).not.toContain('http://wrong'); // secret-typed values are never echoed
    });
});
//# sourceMappingURL=lifecycle.test.js.map