import { readFileSync } from 'node:fs';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Issue 9, item 10: the deliverers' and the activity-writer's health servers (the writer's
 * carries /metrics) listen on HOST, like the gateway and the API — they used to bind 0.0.0.0
 * whatever HOST said. The test stack runs every service with HOST=127.0.0.1; the kernel's
 * socket table says which address each listening port is bound to.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('healthbind', { only: ['webhook-deliverer', 'chat-deliverer', 'activity-writer'] });
});
afterAll(() => stack?.stop());

/** Local addresses (IPv4, as dotted quads) of sockets listening on `port`, from /proc/net/tcp and tcp6. */
function listeningAddresses(port: number): string[] {
  const out: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== '0A') continue; // 0A = LISTEN
      const [hexAddr, hexPort] = local.split(':');
      if (parseInt(hexPort!, 16) !== port) continue;
      out.push(hexAddr!.length === 8 ? hexAddr!.match(/../g)!.reverse().map((b) => parseInt(b, 16)).join('.') : `ipv6:${hexAddr}`);
    }
  }
  return out;
}

it.each(['webhook-deliverer', 'chat-deliverer', 'activity-writer'] as const)('%s: the health server listens on HOST=127.0.0.1 only, not on every interface', (name) => {
  const svc = stack.services[name]!;
  expect(listeningAddresses(svc.port)).toEqual(['127.0.0.1']);
  expect(svc.output()).toMatch(/"host":"127\.0\.0\.1"/);
});
