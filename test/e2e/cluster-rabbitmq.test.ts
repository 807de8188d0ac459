import { must } from '@relay/client';
import type { ActivityPage } from '@relay/client';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Relay on a three-node RabbitMQ cluster ("Clustered infrastructure, proven"):
 * every service is given the three nodes in RABBITMQ_URL; its quorum queues are replicated over
 * them. One node is stopped in the middle of a steady stream of events and started again.
 * Nothing a 202 answered may be lost, and a 503 may come only while the gateway had no node to
 * publish to. The cluster is `scripts/cluster.sh`'s (Debian's packages, loopback ports).
 */
const run = promisify(execFile);
const CLUSTER = path.join(__dirname, '../../scripts/cluster.sh');
const cluster = async (...args: string[]): Promise<string> =>
  (await run('bash', [CLUSTER, ...args], { timeout: 180_000 })).stdout;

/** A steady stream: this many events, one every INTERVAL_MS, at most IN_FLIGHT unanswered. */
const EVENTS = 800;
const INTERVAL_MS = 25;
const IN_FLIGHT = 16;

let stack: Stack;
let receiver: TestReceiver;
let rabbitmqUrl: string;
let endpointId: string;

beforeAll(async () => {
  const urls = await cluster('up-rabbit');
  rabbitmqUrl = /^RABBITMQ_URL=(.*)$/m.exec(urls)![1]!;
  receiver = await TestReceiver.start();
  const onCluster = { RABBITMQ_URL: rabbitmqUrl };
  // private: every service on a RabbitMQ cluster
  stack = await startStack('rabbit-cluster', {
    overrides: {
      'ingest-gateway': onCluster,
      'management-api': onCluster,
      'webhook-deliverer': onCluster,
      'activity-writer': onCluster,
    },
  });
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'cluster' } }))).id;
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind: 'webhook', name: 'r', config: { url: receiver.url('/hook'), enforce_https: false } },
    }),
  );
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  await cluster('down-rabbit');
}, 120_000);

interface Sent {
  n: number;
  status: number;
  code?: string;
  at: number;
}

async function stream(onProgress: (sent: number) => Promise<void>): Promise<Sent[]> {
  const gateway = stack.services['ingest-gateway']!;
  const results: Sent[] = [];
  const inFlight = new Set<Promise<void>>();
  for (let n = 0; n < EVENTS; n++) {
    while (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
    const p = (async () => {
      const res = await fetch(`${gateway.url}/relay/${endpointId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ n }),
      });
      const body = (await res.json().catch(() => ({}))) as { code?: string };
      results.push({ n, status: res.status, at: Date.now(), ...(body.code ? { code: body.code } : {}) });
    })().finally(() => inFlight.delete(p));
    inFlight.add(p);
    await onProgress(n);
    await new Promise((r) => setTimeout(r, INTERVAL_MS));
  }
  await Promise.all(inFlight);
  return results;
}

/**
 * True once the endpoint has `expected` ACCEPTED rows, every page walked; otherwise throws naming
 * up to 10 rows that have deliveries but no request record yet (what to look for in the logs).
 */
async function acceptedRows(expected: number): Promise<boolean> {
  let count = 0;
  const withoutRequest: string[] = [];
  let cursor: string | null | undefined = null;
  for (let calls = 0; calls < 50; calls++) {
    const page: ActivityPage = await must(
      stack.client.GET('/v1/activity', {
        params: { query: { endpoint_id: endpointId, limit: 200, ...(cursor ? { cursor } : {}) } },
      }),
    );
    for (const row of page.data) {
      if (row.outcome === 'ACCEPTED') count += 1;
      else if (row.outcome === undefined) withoutRequest.push(row.id);
    }
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  if (count === expected) return true;
  throw new Error(
    `${count} of ${expected} ACCEPTED rows; rows without their request record: ${withoutRequest.slice(0, 10).join(', ') || 'none'}`,
  );
}

/** How many replicas (members) the stack's delivery queue has, as `rabbitmq-queues` reports it. */
async function deliveryQueueMembers(): Promise<number> {
  const out = await cluster('quorum-members', `${stack.namespace}.deliveries.webhook`);
  return Number(out.trim());
}

describe('Relay on a three-node RabbitMQ cluster with quorum queues', () => {
  it('loses no accepted event when a node stops in the middle of a steady stream and comes back', async () => {
    // a quorum queue replicated on all three nodes: one node's loss leaves a majority
    expect(await deliveryQueueMembers()).toBe(3);
    // the node is stopped and started beside the stream, which goes on at its own pace
    let stoppedAt = 0;
    let goneAt = 0;
    let startedAt = 0;
    const faults: Promise<void>[] = [];
    const results = await stream(async (n) => {
      // node 1 is the first every service connects to: stopping it moves every connection
      if (n === Math.floor(EVENTS / 4)) {
        stoppedAt = Date.now();
        // the stop returns once the node's process has exited: a node shuts down over seconds
        faults.push(cluster('stop-rabbit', '1').then(() => void (goneAt = Date.now())));
      }
      if (n === Math.floor((3 * EVENTS) / 4)) {
        await Promise.all(faults);
        faults.push(cluster('start-rabbit', '1').then(() => void (startedAt = Date.now())));
      }
    });
    await Promise.all(faults);
    const accepted = results.filter((r) => r.status === 202).map((r) => r.n);
    const refused = results.filter((r) => r.status !== 202);
    // a refusal is the spec's 503, never anything else
    for (const r of refused) expect(r).toMatchObject({ status: 503, code: 'delivery_queue_unavailable' });
    // Two of three nodes stay up, so the queues keep their quorum: the gateway moves its
    // connection to the next node and sends again what was in flight (ConfirmPublisher). A 503
    // can come only from the moment the node went away, while that move took longer than the
    // publish deadline (PUBLISH_CONFIRM_TIMEOUT_MS), never from the rest of the outage.
    for (const r of refused) {
      expect(r.at).toBeGreaterThanOrEqual(stoppedAt);
      expect(r.at - goneAt).toBeLessThan(10_000);
    }
    process.stdout.write(
      `cluster: ${accepted.length} accepted, ${refused.length} refused (503); node 1 took ${goneAt - stoppedAt} ms to stop and was down for ${startedAt - goneAt} ms\n`,
    );
    expect(accepted.length).toBeGreaterThan(EVENTS * 0.9);

    // nothing a 202 answered is lost: each accepted event reaches the receiver
    const delivered = (): Set<number> =>
      new Set(receiver.requests.map((r) => (JSON.parse(r.body.toString()) as { n: number }).n));
    await eventually(async () => accepted.every((n) => delivered().has(n)), 60_000, 'every accepted event delivered');
    // and each has its one activity row, Completed
    await eventually(() => acceptedRows(accepted.length), 60_000, 'one ACCEPTED row per accepted event');
  }, 300_000);
});
