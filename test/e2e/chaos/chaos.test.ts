import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { brokerNames } from '@relay/contracts';
import { startPrivateServers } from '../../support/private-servers';
import type { PrivateServers } from '../../support/private-servers';
import type { RunningService } from '../../support/services';
import { tallyActivity } from './activity-tally';
import type { ActivityTally } from './activity-tally';
import { startChaosStack } from './chaos-stack';
import type { ChaosStack } from './chaos-stack';
import { runFaults } from './faults';
import type { FaultRun } from './faults';
import { computeFigures, formatReport } from './figures';
import type { Figures } from './figures';
import { ChaosReceiver } from './receiver';
import { runStream } from './stream';
import type { StreamResult } from './stream';

/**
 * The chaos suite (docs/reliability.md): a steady open-loop stream of numbered events
 * through the real gateway process to a receiver that records every event, while the suite
 * kills webhook-deliverers (three times) and the activity-writer (once) with SIGKILL and
 * restarts RabbitMQ, the store (FerretDB) and Redis — private instances of its own
 * (test/support/private-servers.ts), never the shared servers. Then it counts what arrived.
 *
 *   CHAOS_EVENTS=100000 npx jest --selectProjects e2e -- test/e2e/chaos      (npm run test:chaos)
 */
const intEnv = (name: string, fallback: number, min = 0): number => {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${v}`);
  return n;
};

const EVENTS = intEnv('CHAOS_EVENTS', 8000, 100);
const RATE = intEnv('CHAOS_RATE', 200, 1);
const FAIL_FIRST_EVERY = intEnv('CHAOS_FAIL_FIRST_EVERY', 50, 2);
/**
 * the retry tier failing first attempts wait in: longer than a broker restart (about 7 s here,
 * the stop included), so retries sit across it; the run's last retries end it
 */
const LONG_TIER_MS = 12000;
const SHORT_TIER_MS = 1000;
/** after the last event: the long tier, the backlog, the writer's hold; a bound, not an expectation */
const SERVER_STOP = (process.env.CHAOS_SERVER_STOP || 'SIGTERM') as 'SIGTERM' | 'SIGKILL';
if (SERVER_STOP !== 'SIGTERM' && SERVER_STOP !== 'SIGKILL')
  throw new Error(`CHAOS_SERVER_STOP must be SIGTERM or SIGKILL, got ${String(SERVER_STOP)}`);
const SETTLE_MS = intEnv('CHAOS_SETTLE_MS', 240000, 1000);
/** the broker-outage behaviour (not speed: what a sender is promised) */
const FIRST_503_BOUND_MS = 1000;
const RECOVERY_BOUND_MS = 10000;

let servers: PrivateServers | undefined;
let stack: ChaosStack | undefined;
let receiver: ChaosReceiver | undefined;
let stream: StreamResult;
let run: FaultRun;
let tally: ActivityTally;
let figures: Figures;
let gatewayPid: number | undefined;
const killed: RunningService[] = [];
const leftovers = {
  deliveryQueue: -1,
  retryQueues: -1,
  deadDeliveries: -1,
  activityQueue: -1,
  deadActivity: -1,
  payloadQueue: -1,
  spool: -1,
  writerUnwritten: -1,
};

beforeAll(
  async () => {
    const started = Date.now();
    // eslint-disable-next-line no-console
    console.log(
      `chaos: ${EVENTS} events at ${RATE}/s, every ${FAIL_FIRST_EVERY}th refused on its first attempt, servers stopped with ${SERVER_STOP}; starting private servers`,
    );
    servers = await startPrivateServers('chaos');
    stack = await startChaosStack(servers, { retryTiersMs: [SHORT_TIER_MS, LONG_TIER_MS], monthlyEvents: EVENTS * 10 });
    gatewayPid = stack.gateway.process.pid;
    receiver = new ChaosReceiver(FAIL_FIRST_EVERY);
    const hook = await receiver.start();
    const endpoint = await stack.call('/v1/endpoints', {
      method: 'POST',
      body: { name: 'chaos', rate_limit_per_minute: 100000 },
    });
    if (endpoint.status !== 201) throw new Error(`endpoint not created: ${JSON.stringify(endpoint.body)}`);
    const schedule = [LONG_TIER_MS, SHORT_TIER_MS, SHORT_TIER_MS, SHORT_TIER_MS, SHORT_TIER_MS, SHORT_TIER_MS];
    const target = await stack.call(`/v1/endpoints/${endpoint.body.id}/targets`, {
      method: 'POST',
      body: {
        kind: 'webhook',
        name: 'recorder',
        config: { url: hook, enforce_https: false },
        retry_schedule_ms: schedule,
      },
    });
    if (target.status !== 201) throw new Error(`target not created: ${JSON.stringify(target.body)}`);
    const setupMs = Date.now() - started;

    let progress = 0;
    const names = brokerNames('chaos');
    const faults = runFaults({
      servers,
      stack,
      progress: () => progress,
      total: EVENTS,
      longRetryQueue: names.retryQueue('webhook', LONG_TIER_MS),
      killed,
      serverStop: SERVER_STOP,
    });
    stream = await runStream({
      host: '127.0.0.1',
      port: stack.gateway.port,
      path: `/relay/${endpoint.body.id}`,
      events: EVENTS,
      rate: RATE,
      maxInFlight: 256,
      answerBoundMs: 30000,
      onTick: (n) => (progress = n),
    });
    run = await faults;

    // settle: every accepted event at the receiver, every queue and the spool empty, the writer idle
    const settleStarted = Date.now();
    const accepted = stream.sent.filter((s) => s.status === 202).map((s) => s.n);
    await until(() => accepted.every((n) => receiver!.delivered.has(n)), SETTLE_MS);
    await until(
      async () => {
        const left = await queueLeftovers(servers!, names);
        Object.assign(leftovers, left);
        // unacked messages are not in a queue's count: a writer that takes a message and never
        // writes it shows only in its own gauge
        leftovers.writerUnwritten = await writerMetric(stack!.writer, 'relay_activity_unwritten_records');
        return (
          left.deliveryQueue + left.retryQueues + left.activityQueue + left.payloadQueue + left.spool === 0 &&
          leftovers.writerUnwritten === 0
        );
      },
      Math.max(30000, SETTLE_MS - (Date.now() - settleStarted)),
    );
    // the count; once more after the writer's last flush if rows were still moving. A writer
    // still behind (messages queued) will not be done in seconds: counting again would not help
    const activityDrained = (): boolean => leftovers.activityQueue === 0 && leftovers.spool === 0;
    for (let i = 0; i < 3; i++) {
      tally = await tallyActivity(stack.env.MONGODB_URL!);
      if ((tally.pending === 0 && tally.requests >= answeredCount(stream)) || !activityDrained()) break;
      await new Promise((r) => setTimeout(r, 3000));
    }
    const writerLag = await writerMetric(stack.writer, 'relay_activity_lag_seconds');
    figures = computeFigures(stream.sent, receiver.arrivals, tally, run.broker, (n) => receiver!.failsFirst(n));
    const report = formatReport(figures, tally, run.faults, stream.startedAt, [
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end`,
      `setup ${(setupMs / 1000).toFixed(1)} s; stream ${((stream.endedAt - stream.startedAt) / 1000).toFixed(1)} s (at worst ${stream.maxLagMs} ms behind schedule); settled ${((Date.now() - settleStarted) / 1000).toFixed(1)} s after the last answer`,
      `left in queues: ${JSON.stringify(leftovers)}; activity-writer lag at the count ${writerLag} s`,
      ...(leftovers.writerUnwritten === 0 && writerLag === 0
        ? []
        : [`activity-writer output (last 4,000 characters):\n${stack.writer.output().slice(-4000)}`]),
    ]);
    // eslint-disable-next-line no-console
    console.log(report);
    if (process.env.CHAOS_REPORT)
      writeFileSync(
        process.env.CHAOS_REPORT,
        JSON.stringify(
          {
            events: EVENTS,
            rate: RATE,
            figures,
            tally: { ...tally, accepted: tally.accepted.size },
            faults: run.faults,
            broker: run.broker,
            leftovers,
          },
          null,
          2,
        ),
      );
  },
  900000 + (EVENTS / RATE) * 2000 + SETTLE_MS,
);

afterAll(async () => {
  await stack?.stop().catch(() => undefined);
  // every service's output beside the servers' logs (kept with PRIVATE_SERVERS_KEEP=1)
  if (servers && stack) {
    mkdirSync(path.join(servers.dir, 'services'), { recursive: true });
    for (const s of stack.started)
      writeFileSync(path.join(servers.dir, 'services', `${s.name}-${s.process.pid}.log`), s.output());
    // eslint-disable-next-line no-console
    if (process.env.PRIVATE_SERVERS_KEEP)
      console.log(
        `chaos: server and service logs kept in ${servers.dir}; the store in PostgreSQL database ${servers.storeDatabase}`,
      );
  }
  await receiver?.close().catch(() => undefined);
  await servers?.close();
}, 120000);

function answeredCount(s: StreamResult): number {
  return s.sent.filter((x) => x.status !== 0).length;
}

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function queueLeftovers(
  s: PrivateServers,
  names: ReturnType<typeof brokerNames>,
): Promise<Omit<typeof leftovers, 'writerUnwritten'>> {
  const conn = await amqp.connect(s.rabbitmq.url);
  conn.on('error', () => undefined);
  const redis = new Redis(s.redis.url, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    const ch = await conn.createChannel();
    const depth = async (q: string): Promise<number> => (await ch.checkQueue(q)).messageCount;
    await redis.connect();
    return {
      deliveryQueue: await depth(names.deliveryQueue('webhook')),
      retryQueues:
        (await depth(names.retryQueue('webhook', SHORT_TIER_MS))) +
        (await depth(names.retryQueue('webhook', LONG_TIER_MS))),
      deadDeliveries: await depth(names.deadDeliveryQueue('webhook')),
      activityQueue: (await Promise.all([names.activityQueue, ...names.activityPartitionQueues].map(depth))).reduce(
        (a, b) => a + b,
        0,
      ),
      deadActivity: await depth(names.deadActivityQueue),
      payloadQueue: await depth(names.payloadQueue),
      spool: await redis.llen('chaos:activity-spool'),
    };
  } finally {
    redis.disconnect();
    await conn.close().catch(() => undefined);
  }
}

/** One gauge of the activity-writer's /metrics (-1 when it does not answer). */
async function writerMetric(writer: RunningService, name: string): Promise<number> {
  const text = await (await fetch(`${writer.healthUrl}/metrics`).catch(() => null))?.text();
  const line = text?.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : -1;
}

describe(`chaos: ${EVENTS} events through kills and restarts`, () => {
  it('every request got an answer: 202, or 503 delivery_queue_unavailable', () => {
    expect(figures.unanswered).toEqual({});
    expect(figures.otherAnswers).toEqual({});
    expect(figures.accepted + figures.unavailable).toBe(EVENTS);
  });

  it('every event that got a 202 reached the receiver at least once', () => {
    expect(figures.lostSample).toEqual([]);
    expect(figures.lost).toBe(0);
    expect(figures.delivered).toBe(figures.accepted);
  });

  it('duplicates are counted, and every copy of an event carries the same event id (receivers dedupe on X-Relay-Delivery-Id)', () => {
    expect(figures.eventIdMismatches).toBe(0);
    const deliveryIds = new Map<number, Set<string>>();
    for (const a of receiver!.arrivals)
      (deliveryIds.get(a.n) ?? deliveryIds.set(a.n, new Set()).get(a.n)!).add(a.deliveryId);
    expect([...deliveryIds.values()].filter((ids) => ids.size > 1)).toEqual([]);
    expect(figures.duplicates).toBe([...receiver!.delivered.values()].reduce((sum, c) => sum + c - 1, 0));
  });

  it('exactly one activity row per request (flood-folded 503 rows count their requests), none stuck in Pending', () => {
    expect(tally.pendingIds).toEqual([]);
    expect(tally.pending).toBe(0);
    expect(tally.attemptsOnly).toBe(0);
    expect(tally.byOutcome).toEqual({
      ACCEPTED: figures.accepted,
      ...(figures.unavailable ? { DELIVERY_QUEUE_UNAVAILABLE: figures.unavailable } : {}),
    });
    expect(tally.requests).toBe(EVENTS);
    expect(figures.acceptedWithoutRow).toBe(0);
    expect(figures.rowsWithoutAcceptedEvent).toBe(0);
  });

  it('nothing was dead-lettered and nothing is left in a queue, the spool or the writer', () => {
    expect(leftovers).toEqual({
      deliveryQueue: 0,
      retryQueues: 0,
      deadDeliveries: 0,
      activityQueue: 0,
      deadActivity: 0,
      payloadQueue: 0,
      spool: 0,
      writerUnwritten: 0,
    });
  });

  it('retries scheduled before the broker restart still fire after it', () => {
    expect(run.broker).not.toBeNull();
    expect(run.broker!.retriesWaiting).toBeGreaterThan(0);
    expect(figures.broker!.retriesAcross).toBeGreaterThan(0);
    expect(figures.broker!.retriesAcrossLost).toBe(0);
  });

  it(`the gateway answers 503 delivery_queue_unavailable within ${FIRST_503_BOUND_MS} ms of the broker going away and 202 within ${RECOVERY_BOUND_MS} ms of its return, no process restarted by hand`, () => {
    const b = figures.broker!;
    expect(b.acceptedWhileAway).toBe(0);
    expect(b.first503Ms).not.toBeNull();
    expect(b.first503Ms!).toBeLessThanOrEqual(FIRST_503_BOUND_MS);
    expect(b.recoveryMs).not.toBeNull();
    expect(b.recoveryMs!).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    // the one gateway served the whole run; every process the suite did not kill is still running
    expect(stack!.gateway.process.pid).toBe(gatewayPid);
    const exitedUnasked = stack!.started.filter(
      (s) => !killed.includes(s) && (s.process.exitCode !== null || s.process.signalCode !== null),
    );
    expect(exitedUnasked.map((s) => `${s.name} pid ${s.process.pid}: ${s.output().slice(-2000)}`)).toEqual([]);
    expect(killed.map((s) => s.name).sort()).toEqual([
      'activity-writer',
      'webhook-deliverer',
      'webhook-deliverer',
      'webhook-deliverer',
    ]);
  });
});
