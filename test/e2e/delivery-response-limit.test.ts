import { must } from '@relay/client';
import type { ActivityRow } from '@relay/client';
import { eventually } from '../support/infra';
import { GIB, HugeResponseServer, MIB, residentBytes } from '../support/huge-response';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Seen from outside: the real webhook-deliverer process delivers to a
 * loopback destination answering 200 with 1 GiB (plain, then a gzip bomb). Its resident set —
 * including its peak (VmHWM), so nothing between two samples is missed — stays within 64 MB
 * of what it used idle, and the activity row records a clear permanent failure instead of
 * "delivered 200".
 */
let stack: Stack;
let huge: HugeResponseServer;
let receiver: TestReceiver;
let endpointId: string;

beforeAll(async () => {
  huge = await HugeResponseServer.start();
  receiver = await TestReceiver.start();
  stack = await startStack('resplimit');
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'huge answers' } }))).id;
});

afterAll(async () => {
  await stack?.stop();
  await huge?.close();
  await receiver?.close();
});

async function withTarget(url: string, run: () => Promise<void>): Promise<void> {
  const created = await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind: 'webhook', name: 'huge', config: { url, enforce_https: false }, retry_schedule_ms: [] },
    }),
  );
  try {
    await run();
  } finally {
    await must(
      stack.client.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}', {
        params: { path: { endpointId, targetId: created.id } },
      }),
    );
  }
}

async function deliverOnce(): Promise<ActivityRow> {
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"order":1}',
  });
  expect(res.status).toBe(202);
  const { id: eventId } = await eventually(
    async () => {
      const list = await must(
        stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId, limit: 1 } } }),
      );
      const row = list.data[0];
      return row && !seen.has(row.id) ? row : undefined;
    },
    15000,
    'the new activity row',
  );
  seen.add(eventId);
  return eventually(
    async () => {
      const row = await must(stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } }));
      return row.deliveries[0]?.attempts.length ? row : undefined;
    },
    20000,
    'the attempt on the row',
  );
}
const seen = new Set<string>();

it('a destination answering 200 with 1 GiB (plain or gzip) leaves the deliverer within 64 MB of its idle RSS and records a permanent failure', async () => {
  const pid = stack.services['webhook-deliverer']!.process.pid!;
  // warm up: the first delivery loads the sending code paths, which is not what is measured
  await withTarget(receiver.url(), async () =>
    expect((await deliverOnce()).deliveries[0].attempts[0].state).toBe('delivered'),
  );
  const idle = residentBytes(pid).rss;

  for (const encoding of ['identity', 'gzip'] as const) {
    huge.answerWith({ status: 200, bytes: GIB, encoding });
    await withTarget(huge.url(), async () => {
      const row = await deliverOnce();
      expect(row.status).toBe('errors');
      expect(row.deliveries[0].attempts[0]).toMatchObject({
        state: 'failed',
        status_code: null,
        error: expect.stringMatching(/^RESPONSE_TOO_LARGE: HTTP 200 with a response body over 65536 bytes/),
      });
    });
    const { rss, peak } = residentBytes(pid);
    expect({
      encoding,
      rssGrowthUnder64MB: rss - idle < 64 * MIB,
      peakGrowthUnder64MB: peak - idle < 64 * MIB,
    }).toEqual({ encoding, rssGrowthUnder64MB: true, peakGrowthUnder64MB: true });
    expect(huge.sent).toBeLessThan(64 * MIB);
  }
});
