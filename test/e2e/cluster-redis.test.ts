import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { must } from '@relay/client';
import { Redis } from 'ioredis';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Relay on a Redis Cluster ("Clustered infrastructure, proven"): the gateway, the
 * management API and a deliverer are given three of the cluster's six nodes in REDIS_URL
 * (three masters, a replica each). The master holding the account's quota counter is stopped in
 * the middle of a steady stream of events with a rate limit and a monthly quota in force; its
 * replica takes over. Nothing a 202 answered may be lost, the quota counter must equal the
 * accepted events, a setting changed through the API during the failover must be in force within
 * the bound docs/reliability.md states, and a refusal may come only during the failover. The
 * cluster is `scripts/cluster.sh`'s (Debian's packages, loopback ports 7101-7106).
 */
const run = promisify(execFile);
const CLUSTER = path.join(__dirname, '../../scripts/cluster.sh');
const cluster = async (...args: string[]): Promise<string> =>
  (await run('bash', [CLUSTER, ...args], { timeout: 180_000 })).stdout;

/** A steady stream: this many events, one every INTERVAL_MS, at most IN_FLIGHT unanswered. */
const EVENTS = 600;
const INTERVAL_MS = 25;
const IN_FLIGHT = 16;
/** The endpoint's rate limit: above the stream's 40/s, so every refusal would be the failover's. */
const RATE_PER_MINUTE = 6000;
/** A setting changed during the failover is in force within this (docs/reliability.md "Clustered Redis"). */
const IN_FORCE_DURING_FAILOVER_MS = 5000;
/** Refusals may come only this long after the master stopped: node timeout (2 s) + election + slot refresh. */
const FAILOVER_WINDOW_MS = 10_000;

let stack: Stack;
let receiver: TestReceiver;
let endpointId: string;
let probeId: string;
/** events the probe endpoint accepted: they count against the quota too */
let probeAccepted = 0;

beforeAll(async () => {
  const urls = await cluster('up-redis');
  const redisUrl = /^REDIS_URL=(.*)$/m.exec(urls)![1]!;
  receiver = await TestReceiver.start();
  const onCluster = { REDIS_URL: redisUrl };
  stack = await startStack('redis-cluster', {
    only: ['ingest-gateway', 'management-api', 'webhook-deliverer'],
    overrides: { 'ingest-gateway': onCluster, 'management-api': onCluster, 'webhook-deliverer': onCluster },
  });
  await must(stack.client.PATCH('/v1/account/plan', { body: { monthly_accepted_events: 100_000 } }));
  endpointId = (
    await must(
      stack.client.POST('/v1/endpoints', { body: { name: 'cluster', rate_limit_per_minute: RATE_PER_MINUTE } }),
    )
  ).id;
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind: 'webhook', name: 'r', config: { url: receiver.url('/hook'), enforce_https: false } },
    }),
  );
  // the endpoint whose setting is changed during the failover
  probeId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'probe', methods: ['POST'] } }))).id;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  await cluster('down-redis');
}, 120_000);

/** Asks the first node that answers (one of them is stopped during the test). */
async function askCluster(...args: string[]): Promise<unknown> {
  for (let node = 1; node <= 6; node++) {
    const client = new Redis({
      host: '127.0.0.1',
      port: 7100 + node,
      lazyConnect: true,
      connectTimeout: 1000,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await client.call(args[0]!, ...args.slice(1));
    } catch {
      // stopped: the next node
    } finally {
      client.disconnect();
    }
  }
  throw new Error('no Redis Cluster node answered');
}

/** The cluster node (1-6, cluster.sh's numbering) that is master of `key`'s slot now. */
async function masterOf(key: string): Promise<number> {
  const slot = Number(await askCluster('CLUSTER', 'KEYSLOT', key));
  const ranges = (await askCluster('CLUSTER', 'SLOTS')) as [
    number,
    number,
    [string, number, ...unknown[]],
    ...unknown[],
  ][];
  const owner = ranges.find(([from, to]) => slot >= from && slot <= to)!;
  return owner[2][1] - 7100;
}

interface Sent {
  n: number;
  status: number;
  code?: string;
  at: number;
}

async function post(id: string, body: unknown): Promise<{ status: number; code?: string }> {
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as { code?: string };
  if (id === probeId && res.status === 202) probeAccepted += 1;
  return { status: res.status, ...(json.code ? { code: json.code } : {}) };
}

async function stream(onProgress: (sent: number) => Promise<void>): Promise<Sent[]> {
  const results: Sent[] = [];
  const inFlight = new Set<Promise<void>>();
  for (let n = 0; n < EVENTS; n++) {
    while (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
    const p = post(endpointId, { n })
      .then((r) => void results.push({ n, at: Date.now(), ...r }))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    await onProgress(n);
    await new Promise((r) => setTimeout(r, INTERVAL_MS));
  }
  await Promise.all(inFlight);
  return results;
}

/** Polls until the probe endpoint refuses POST (its methods changed to PUT); ms it took, bounded. */
async function untilProbeRefusesPost(since: number): Promise<number> {
  for (let i = 0; i < 300; i++) {
    if ((await post(probeId, { probe: i })).status === 405) return Date.now() - since;
    if (Date.now() - since > 30_000) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the probe endpoint still accepts POST 30 s after its methods were changed');
}

describe('Relay on a three-master Redis Cluster', () => {
  it('loses nothing, counts the quota exactly and applies settings when a master stops in the middle of a steady stream', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const quotaKey = `${stack.namespace}:quota:${stack.accountId}:${month}`;
    const node = await masterOf(quotaKey);
    expect(node).toBeGreaterThanOrEqual(1);
    expect(node).toBeLessThanOrEqual(3);
    expect((await post(probeId, { warm: true })).status).toBe(202); // cached by the gateway now

    let stoppedAt = 0;
    let promotedMs = 0;
    let patchMs = 0;
    let inForceMs = 0;
    const faults: Promise<void>[] = [];
    const results = await stream(async (n) => {
      if (n !== Math.floor(EVENTS / 4)) return;
      stoppedAt = Date.now();
      const stopped = cluster('stop-redis', String(node));
      faults.push(
        stopped.then(async () => {
          // how long until the cluster names another master for the counter's slot
          for (let i = 0; i < 300 && promotedMs === 0; i++) {
            if ((await masterOf(quotaKey)) !== node) promotedMs = Date.now() - stoppedAt;
            else await new Promise((r) => setTimeout(r, 100));
          }
        }),
        // a setting changed through the API while the cluster fails over: the node is down, its
        // replica not yet promoted (cluster-node-timeout 2 s)
        stopped.then(async () => {
          const before = Date.now();
          let patched = 0;
          for (let i = 0; i < 100 && patched !== 200; i++) {
            const answer = await stack.client
              .PATCH('/v1/endpoints/{endpointId}', {
                params: { path: { endpointId: probeId } },
                body: { methods: ['PUT'] },
              })
              .catch(() => undefined);
            patched = answer?.response.status ?? 0;
            if (patched !== 200) await new Promise((r) => setTimeout(r, 100));
          }
          expect(patched).toBe(200);
          patchMs = Date.now() - before;
          inForceMs = await untilProbeRefusesPost(Date.now());
        }),
      );
    });
    await Promise.all(faults);
    expect(promotedMs).toBeGreaterThan(0);
    const metrics = await (await fetch(`${stack.services['ingest-gateway']!.healthUrl}/metrics`)).text();
    const decidedLocally = Number(/^relay_ingest_limiter_fallback_total (\d+)/m.exec(metrics)?.[1] ?? 0);

    const accepted = results.filter((r) => r.status === 202).map((r) => r.n);
    const refused = results.filter((r) => r.status !== 202);
    // the gateway decides limits per process while the counter's master is away, so Redis's
    // failover alone refuses nothing; any refusal there is must fall in the failover
    for (const r of refused) expect(r.at - stoppedAt).toBeLessThan(FAILOVER_WINDOW_MS);
    for (const r of refused) expect(r.at).toBeGreaterThanOrEqual(stoppedAt);
    process.stdout.write(
      `redis cluster: ${accepted.length} accepted, ${refused.length} refused (${refused.map((r) => `${r.status} ${r.code ?? ''}`).join(', ')}); ` +
        `master ${node} stopped, its replica master after ${promotedMs} ms; ${decidedLocally} requests decided by the per-process limiter; ` +
        `PATCH answered in ${patchMs} ms, in force ${inForceMs} ms after\n`,
    );
    expect(accepted.length).toBeGreaterThan(EVENTS * 0.95);
    expect(inForceMs).toBeLessThan(IN_FORCE_DURING_FAILOVER_MS);

    // nothing a 202 answered is lost: each accepted event reaches the receiver
    const delivered = (): Set<number> =>
      new Set(receiver.requests.map((r) => (JSON.parse(r.body.toString()) as { n: number }).n));
    await eventually(async () => accepted.every((n) => delivered().has(n)), 60_000, 'every accepted event delivered');
    // the quota counter is exact: the stream's accepted events and the probe's
    await eventually(
      async () => {
        const usage = await must(stack.client.GET('/v1/billing/usage'));
        if (usage.accepted_events === accepted.length + probeAccepted) return true;
        throw new Error(`quota counter ${usage.accepted_events}, accepted ${accepted.length + probeAccepted}`);
      },
      10_000,
      'quota counter equal to the accepted events',
    );
  }, 400_000);
});
