import { randomUUID } from 'node:crypto';
import { must } from '@relay/client';
import { Redis } from 'ioredis';
import { activityRowWhen } from '../support/api-client';
import { eventually } from '../support/infra';
import { startPrivateRedis } from '../support/private-servers';
import {
  addQueueTarget,
  flagOf,
  removeTarget,
  retryingWith,
  RIDES_OUT_AN_OUTAGE,
  sendJson,
} from '../support/queue-targets';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * Redis Streams targets (docs/targets-queues.md "Redis Streams"), every service its own process
 * on the worker's shared stack, which runs no outputs deliverer: this file starts one on the
 * stack's environment for its own run. It XADDs each delivery to a real Redis and a consumer in
 * the test reads the stream back. Streams live under keys of this file's own
 * (`e2e-stream:<uuid>`) on the shared Redis, never in Relay's namespaces; the outage test stops a
 * private Redis of its own, never the shared one.
 */

const SHARED_REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let stack: Stack;
let outputs: RunningService;
let consumer: Redis;
let endpointId: string;
const streams: string[] = [];

beforeAll(async () => {
  stack = await startStack('redis-stream');
  outputs = await startService('outputs-deliverer', stack.env);
  consumer = new Redis(SHARED_REDIS);
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'to streams' } }))).id;
});

afterAll(async () => {
  if (streams.length > 0) await consumer?.del(...streams);
  consumer?.disconnect();
  await outputs?.stop();
  await stack?.stop();
});

const newStream = (): string => {
  const key = `e2e-stream:${randomUUID()}`;
  streams.push(key);
  return key;
};

type Entry = Record<string, string>;

/** the stream's entries as field → value, oldest first */
async function entries(client: Redis, stream: string): Promise<Entry[]> {
  const raw = await client.xrange(stream, '-', '+');
  return raw.map(([, flat]) => Object.fromEntries(flat.flatMap((v, i) => (i % 2 === 0 ? [[v, flat[i + 1]!]] : []))));
}

const waitForEntries = (client: Redis, stream: string, n: number, timeoutMs = 30_000): Promise<Entry[]> =>
  eventually(
    async () => {
      const got = await entries(client, stream);
      return got.length >= n ? got : undefined;
    },
    timeoutMs,
    `${n} entries in ${stream}`,
  );

describe('Redis Streams target, end to end', () => {
  it('an event becomes one stream entry: the body as received, its content type, and the ids of the activity row', async () => {
    const stream = newStream();
    const targetId = await addQueueTarget(stack, endpointId, 'redis_stream', {
      url: SHARED_REDIS,
      stream,
      max_length: 1000,
    });
    try {
      await sendJson(stack, endpointId, { order: { id: 42 } });
      const [entry] = await waitForEntries(consumer, stream, 1);
      expect(entry).toEqual({
        delivery_id: expect.stringMatching(/^dlv_/),
        event_id: expect.stringMatching(/^evt_/),
        endpoint_id: endpointId,
        received_at: expect.any(String),
        content_type: 'application/json',
        body: '{"order":{"id":42}}',
      });
      const row = await activityRowWhen(stack.client, entry!.event_id!, (r) => r.status === 'completed', 'delivered');
      expect(row.deliveries).toEqual([
        expect.objectContaining({ delivery_id: entry!.delivery_id, target_id: targetId }),
      ]);
      expect(row.deliveries[0]!.attempts.map((a) => [a.state, a.status_code])).toEqual([['delivered', null]]);
      expect(JSON.stringify(row)).not.toContain(SHARED_REDIS);
    } finally {
      await removeTarget(stack, endpointId, targetId);
    }
  });

  it('a wrong credential (WRONGPASS) flags the target with the reason; the password is in no response', async () => {
    const stream = newStream();
    const targetId = await addQueueTarget(stack, endpointId, 'redis_stream', {
      url: 'redis://nobody:wrong-Pa55word@127.0.0.1:6379',
      stream,
    });
    try {
      await sendJson(stack, endpointId, { n: 1 });
      const flagged = await flagOf(stack, endpointId, targetId);
      expect(flagged.reason).toBe('Redis refused the credentials (WRONGPASS): check the user and password in the URL');
      expect(await consumer.exists(stream)).toBe(0);
      const list = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }),
      );
      expect(JSON.stringify(list)).not.toContain('wrong-Pa55word');
    } finally {
      await removeTarget(stack, endpointId, targetId);
    }
  });
});

describe('a Redis of the operator’s own', () => {
  it('an ACL user allowed nothing but XADD on the stream’s key delivers', async () => {
    const redis = await startPrivateRedis('stream-acl');
    const admin = new Redis(redis.url);
    const targetId = await (async () => {
      await admin.call('ACL', 'SETUSER', 'relay', 'on', '>xadd-only-Pa55', 'resetkeys', '~orders', '-@all', '+xadd');
      const url = new URL(redis.url);
      url.username = 'relay';
      url.password = 'xadd-only-Pa55';
      return addQueueTarget(stack, endpointId, 'redis_stream', { url: url.toString(), stream: 'orders' });
    })();
    try {
      await sendJson(stack, endpointId, { acl: true });
      const [entry] = await waitForEntries(admin, 'orders', 1);
      expect(JSON.parse(entry!.body!)).toEqual({ acl: true });
    } finally {
      await removeTarget(stack, endpointId, targetId);
      admin.disconnect();
      await redis.close();
    }
  });
});

describe('pooled connections', () => {
  it('deleting the target closes its connection to the server at once, not when it idles out', async () => {
    const redis = await startPrivateRedis('stream-release');
    const admin = new Redis(redis.url);
    const connections = async (): Promise<number> =>
      String(await admin.call('CLIENT', 'LIST'))
        .trim()
        .split('\n').length;
    try {
      const targetId = await addQueueTarget(stack, endpointId, 'redis_stream', { url: redis.url, stream: 'orders' });
      await sendJson(stack, endpointId, { pooled: true });
      await waitForEntries(admin, 'orders', 1);
      // this test's, and the outputs deliverer's for the target
      expect(await connections()).toBe(2);
      await removeTarget(stack, endpointId, targetId);
      // the deletion's announcement closes it; the pool's idle sweep would take a minute
      await eventually(async () => (await connections()) === 1, 10_000, "the deliverer's connection closed");
    } finally {
      admin.disconnect();
      await redis.close();
    }
  });
});

describe('the destination Redis stopped mid-run and restarted', () => {
  it('deliveries sent while it is down are retried and arrive once it is back: none lost, none twice', async () => {
    const redis = await startPrivateRedis('stream-outage');
    const reader = new Redis(redis.url, { lazyConnect: true, retryStrategy: () => null });
    reader.on('error', () => undefined);
    const stream = 'orders';
    const outage = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'outage' } }))).id;
    const targetId = await addQueueTarget(
      stack,
      outage,
      'redis_stream',
      { url: redis.url, stream },
      RIDES_OUT_AN_OUTAGE,
    );
    try {
      for (let i = 0; i < 3; i++) await sendJson(stack, outage, { before: i });
      await reader.connect();
      await waitForEntries(reader, stream, 3);
      reader.disconnect();

      await redis.stop('SIGTERM');
      for (let i = 0; i < 3; i++) await sendJson(stack, outage, { during: i });
      // each of them tried and refused while the server was down, its retry scheduled
      await retryingWith(stack, outage, 'Redis unavailable (ECONNREFUSED)', 3);

      await redis.start(20_000);
      const back = new Redis(redis.url);
      try {
        const all = await waitForEntries(back, stream, 6, 60_000);
        expect(all.map((e) => JSON.parse(e.body!))).toEqual(
          expect.arrayContaining([
            { before: 0 },
            { before: 1 },
            { before: 2 },
            { during: 0 },
            { during: 1 },
            { during: 2 },
          ]),
        );
        expect(new Set(all.map((e) => e.delivery_id)).size).toBe(6);
        expect(all).toHaveLength(6);
      } finally {
        back.disconnect();
      }
    } finally {
      await removeTarget(stack, outage, targetId);
      reader.disconnect();
      await redis.close();
    }
  });
});
