import { readFileSync } from 'node:fs';
import { brokerNames } from '@relay/contracts';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * The deliverers' and the activity-writer's health servers (the writer's
 * carries /metrics) listen on HOST, like the gateway and the API — they used to bind 0.0.0.0
 * whatever HOST said. The test stack runs every service with HOST=127.0.0.1; the kernel's
 * socket table says which address each listening port is bound to.
 *
 * Every service serves its Prometheus series on that health server.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('healthbind', {
    only: ['management-api', 'ingest-gateway', 'webhook-deliverer', 'chat-deliverer', 'activity-writer'],
  });
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
      out.push(
        hexAddr!.length === 8
          ? hexAddr!
              .match(/../g)!
              .reverse()
              .map((b) => parseInt(b, 16))
              .join('.')
          : `ipv6:${hexAddr}`,
      );
    }
  }
  return out;
}

it.each(['webhook-deliverer', 'chat-deliverer', 'activity-writer'] as const)(
  '%s: the health server listens on HOST=127.0.0.1 only, not on every interface',
  (name) => {
    const svc = stack.services[name]!;
    expect(listeningAddresses(svc.port)).toEqual(['127.0.0.1']);
    expect(svc.output()).toMatch(/"host":"127\.0\.0\.1"/);
  },
);

/** The series each service must export (process metrics on all), in the Prometheus text format. */
const SERIES: Record<
  'management-api' | 'ingest-gateway' | 'webhook-deliverer' | 'chat-deliverer' | 'activity-writer',
  string[]
> = {
  'management-api': [],
  'ingest-gateway': [
    'relay_ingest_requests_total',
    'relay_ingest_accepted_duration_seconds',
    'relay_ingest_publishes_total',
    'relay_ingest_activity_spool_length',
  ],
  'webhook-deliverer': [
    'relay_delivery_attempts_total',
    'relay_delivery_attempt_duration_seconds',
    'relay_delivery_retries_scheduled_total',
    'relay_delivery_dead_lettered_total',
    'relay_queue_messages',
    'relay_queue_consumers',
  ],
  'chat-deliverer': [
    'relay_delivery_attempts_total',
    'relay_delivery_attempt_duration_seconds',
    'relay_delivery_retries_scheduled_total',
    'relay_delivery_dead_lettered_total',
    'relay_queue_messages',
    'relay_queue_consumers',
  ],
  'activity-writer': [
    'relay_activity_lag_seconds',
    'relay_activity_records_written_total',
    'relay_queue_messages',
    'relay_queue_consumers',
  ],
};

it.each(Object.keys(SERIES) as Array<keyof typeof SERIES>)(
  '%s: /metrics on HEALTH_PORT answers with its series and the process metrics',
  async (name) => {
    const res = await fetch(`${stack.services[name]!.healthUrl}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const series of [...SERIES[name], 'process_cpu_user_seconds_total', 'nodejs_eventloop_lag_seconds'])
      expect(text).toContain(`# TYPE ${series} `);
  },
);

it.each(['management-api', 'ingest-gateway'] as const)(
  '%s: its HTTP port does not serve /metrics (HEALTH_PORT only)',
  async (name) => {
    const res = await fetch(`${stack.services[name]!.url}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('# TYPE');
  },
);

it.each([
  ['webhook-deliverer', 'webhook'],
  ['chat-deliverer', 'chat'],
] as const)(
  '%s: its work queue has a depth series and itself as a consumer; its dead-letter queue a depth series',
  async (name, channel) => {
    const names = brokerNames(stack.namespace);
    const text = await (await fetch(`${stack.services[name]!.healthUrl}/metrics`)).text();
    expect(text).toMatch(
      new RegExp(
        `^relay_queue_consumers\\{queue="${names.deliveryQueue(channel).replace(/\./g, '\\.')}"\\} [1-9]`,
        'm',
      ),
    );
    expect(text).toContain(`relay_queue_messages{queue="${names.deadDeliveryQueue(channel)}"}`);
    expect(text).toMatch(
      new RegExp(`relay_queue_messages\\{queue="${stack.namespace}\\.retry\\.${channel}\\.\\d+ms"\\}`),
    );
  },
);

it('activity-writer: the activity queue and its dead-letter queue have depth series', async () => {
  const names = brokerNames(stack.namespace);
  const text = await (await fetch(`${stack.services['activity-writer']!.healthUrl}/metrics`)).text();
  expect(text).toContain(`relay_queue_messages{queue="${names.activityQueue}"}`);
  expect(text).toContain(`relay_queue_messages{queue="${names.activityPartitionQueue(0)}"}`);
  expect(text).toContain(`relay_queue_messages{queue="${names.deadActivityQueue}"}`);
});
