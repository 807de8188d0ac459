import { must } from '@relay/client';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

let stack: Stack;

beforeAll(async () => {
  // private: it stops the services with SIGTERM
  stack = await startStack('lifecycle', { only: ['management-api', 'activity-writer'] });
});
afterAll(() => stack?.stop());

describe('service lifecycle', () => {
  it('SIGTERM: the gateway finishes the requests in flight (all 202), then exits 0', async () => {
    const gateway = await startService('ingest-gateway', stack.env);
    const endpoint = await must(stack.client.POST('/v1/endpoints', { body: { name: 'drain' } }));
    const post = (): Promise<number> =>
      fetch(`${gateway.url}/relay/${endpoint.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"n":1}',
      }).then((r) => r.status);
    expect(await post()).toBe(202); // warm the endpoint cache
    const inFlight = Array.from({ length: 20 }, post);
    await new Promise((r) => setTimeout(r, 5));
    const exited = gateway.stop('SIGTERM');
    const statuses = await Promise.allSettled(inFlight);
    expect(await exited).toBe(0);
    const answered = statuses
      .filter((s): s is PromiseFulfilledResult<number> => s.status === 'fulfilled')
      .map((s) => s.value);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.every((s) => s === 202)).toBe(true);
    expect(gateway.output()).toContain('shutdown complete');
  });

  it('SIGTERM: a deliverer and the activity-writer stop consuming and exit 0', async () => {
    const deliverer = await startService('webhook-deliverer', stack.env);
    expect(await deliverer.stop('SIGTERM')).toBe(0);
    const writer = stack.services['activity-writer']!;
    expect(await writer.stop('SIGTERM')).toBe(0);
    delete stack.services['activity-writer'];
  });

  it('a service with a bad environment exits 1 and lists every problem at once', async () => {
    const child = spawn(process.execPath, [path.resolve(__dirname, '../../services/ingest-gateway/dist/main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: 'eighty',
        RABBITMQ_URL: 'http://wrong',
        PUBLISH_CONFIRM_TIMEOUT_MS: '1',
        SECRETS_KEYS: 'k:x',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(out).toMatch(/PORT: expected an integer/);
    expect(out).toMatch(/RABBITMQ_URL: URL scheme must be one of amqp:, amqps:/);
    expect(out).toMatch(/PUBLISH_CONFIRM_TIMEOUT_MS: must be >= 50/);
    expect(out).not.toContain('http://wrong'); // secret-typed values are never echoed
  });
});
