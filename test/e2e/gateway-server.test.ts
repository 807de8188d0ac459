import net from 'node:net';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * The gateway as it runs (its own process, built from dist/): what its HTTP servers expose and
 * how they treat senders, beyond the ingest pipeline itself (docs/ingest.md "Timeouts",
 * docs/security.md).
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('gw-server');
});
afterAll(() => stack?.stop());

const gateway = () => stack.services['ingest-gateway']!;

/** Whether a TCP connection to `host:port` is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe("the gateway's ports", () => {
  it('serves /metrics, /readyz and /healthz on HEALTH_PORT and never on the public ingest port', async () => {
    for (const path of ['/metrics', '/readyz', '/healthz']) {
      const res = await fetch(`${gateway().url}${path}`);
      expect([path, res.status, ((await res.json()) as { code: string }).code]).toEqual([path, 404, 'not_found']);
    }
    expect((await fetch(`${gateway().healthUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${gateway().healthUrl}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${gateway().healthUrl}/metrics`)).text()).toContain('relay_ingest_requests_total');
  });

  it('binds the health port to HOST (127.0.0.1 here): another loopback address is refused', async () => {
    const port = Number(new URL(gateway().healthUrl).port);
    expect(await connects('127.0.0.1', port)).toBe(true);
    expect(await connects('127.0.0.2', port)).toBe(false);
  });
});
