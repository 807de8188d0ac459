import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import amqp from 'amqplib';
import { BrokerConnection, ConfirmPublisher, createActivityPublisher } from '@relay/broker';
import {
  ACTIVITY_ATTEMPT_V1,
  ACTIVITY_PARTITIONS,
  ACTIVITY_REQUEST_V1,
  activityPartitionOf,
  brokerNames,
  timedId,
} from '@relay/contracts';
import type { ActivityAttemptV1, ActivityRequestV1 } from '@relay/contracts';
import { connectStore } from '@relay/store';
import type { Store } from '@relay/store';
import { startPrivateServers } from '../../support/private-servers';
import type { PrivateServers } from '../../support/private-servers';
import { startService } from '../../support/services';
import type { RunningService } from '../../support/services';
import { testLogger } from '../../support/logger';
import { collectionsOf } from '../../support/activity-log-internals';
import { tallyActivity } from './activity-tally';
import type { ActivityTally } from './activity-tally';

/**
 * Partitioned activity writers under faults (docs/reliability.md "Activity writers
 * killed and the store restarted"): a steady stream of activity records (each event's request
 * row and its delivery's attempt, as the gateway and a deliverer publish them) over 32 accounts
 * that cover the 8 partitions, written by 3 activity-writer processes, while the suite kills a
 * writer with SIGKILL three times (a new one is started in its place, as a supervisor would) and
 * restarts the store (FerretDB) once — private servers of its own, never the shared ones. After
 * each kill it times the takeover: one marker event per partition, published at once, until
 * every marker's row can be read. Then it counts: one row per event, none Pending, none lost.
 *
 *   CHAOS_LOG_EVENTS=50000 npx jest --selectProjects e2e -- test/e2e/chaos/activity-writers
 *
 * With PRIVATE_SERVERS_KEEP=1 each writer's log stays in the servers' directory
 * (`services/activity-writer-<pid>.log`); CHAOS_LOG_LEVEL=info puts the partition hand-overs in it.
 */
const intEnv = (name: string, fallback: number, min = 0): number => {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${v}`);
  return n;
};

const EVENTS = intEnv('CHAOS_LOG_EVENTS', 3000, 100);
const RATE = intEnv('CHAOS_LOG_RATE', 150, 1);
const WRITERS = 3;
const ACCOUNTS = 32;
/** a bound, not an expectation: the hold, the quiet-queue index write, a store restart's retries */
const SETTLE_MS = intEnv('CHAOS_LOG_SETTLE_MS', 180000, 1000);
/** longest a takeover may take to be measured before the run is called stuck */
const TAKEOVER_BOUND_MS = 60000;
const NAMESPACE = 'chaoslog';
const SCHEDULE: ReadonlyArray<{ share: number; fault: 'kill -9 activity-writer' | 'restart the store (FerretDB)' }> = [
  { share: 0.2, fault: 'kill -9 activity-writer' },
  { share: 0.35, fault: 'restart the store (FerretDB)' },
  { share: 0.5, fault: 'kill -9 activity-writer' },
  { share: 0.8, fault: 'kill -9 activity-writer' },
];

const { logger } = testLogger();
let servers: PrivateServers | undefined;
let broker: BrokerConnection | undefined;
let reader: Store | undefined;
const writers: RunningService[] = [];
const started: RunningService[] = [];
const expected = new Set<string>();
const faults: { fault: string; atShare: number; detail: string; takeoverMs?: number }[] = [];
let publishFailures = 0;
let tally: ActivityTally;
let deadLettered = -1;

const accountOf = (n: number): string => `acc_chaos${n % ACCOUNTS}`;
/** one account per partition, for the takeover markers */
const MARKER_ACCOUNTS = Array.from({ length: ACTIVITY_PARTITIONS }, (_, k) => {
  for (let i = 0; i < 10_000; i++) if (activityPartitionOf(`acc_marker${i}`) === k) return `acc_marker${i}`;
  throw new Error(`no account for partition ${k}`);
});

function requestOf(id: string, account: string, targets: number): ActivityRequestV1 {
  return {
    type: ACTIVITY_REQUEST_V1,
    event_id: id,
    account_id: account,
    endpoint_id: `ep_${account}`,
    received_at: new Date().toISOString(),
    method: 'POST',
    source_ip: '203.0.113.9',
    outcome: 'ACCEPTED',
    reason: null,
    target_count: targets,
    test: false,
  };
}

function attemptOf(id: string, account: string): ActivityAttemptV1 {
  return {
    type: ACTIVITY_ATTEMPT_V1,
    event_id: id,
    delivery_id: `dlv_${id}`,
    account_id: account,
    endpoint_id: `ep_${account}`,
    target_id: 'tg_chaos',
    target_kind: 'webhook',
    attempt: 1,
    attempted_at: new Date().toISOString(),
    state: 'delivered',
    status_code: 200,
    duration_ms: 3,
    error: null,
    next_attempt_at: null,
  };
}

async function startWriter(env: Record<string, string>): Promise<RunningService> {
  const w = await startService('activity-writer', env);
  started.push(w);
  return w;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

beforeAll(
  async () => {
    servers = await startPrivateServers('chaoslog');
    const env = {
      ...servers.env('relay_chaoslog'),
      RELAY_NAMESPACE: NAMESPACE,
      LOG_LEVEL: process.env.CHAOS_LOG_LEVEL || 'warn',
    };
    for (let i = 0; i < WRITERS; i++) writers.push(await startWriter(env));
    broker = new BrokerConnection({
      url: servers.rabbitmq.url,
      connectionName: 'chaos activity producer',
      logger,
      topology: { namespace: NAMESPACE, deliveryLimit: 20 },
    });
    await broker.start();
    const publisher = new ConfirmPublisher(broker, 10000);
    const activity = createActivityPublisher(publisher, NAMESPACE);
    reader = await connectStore(env.MONGODB_URL, { serverSelectionTimeoutMS: 30000 });
    const rows = collectionsOf(reader);
    const inFlight = new Set<Promise<void>>();
    const publish = (records: (ActivityRequestV1 | ActivityAttemptV1)[]) => {
      const p = Promise.all(records.map((r) => activity.publish(r)))
        .then(() => undefined)
        .catch(() => void (publishFailures += 1));
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };

    // the partition queues' ready messages: what a takeover has to work off before its markers
    const depthConn = await amqp.connect(servers.rabbitmq.url);
    const depthCh = await depthConn.createChannel();
    const backlog = async (): Promise<number> => {
      let ready = 0;
      for (const q of brokerNames(NAMESPACE).activityPartitionQueues)
        ready += (await depthCh.checkQueue(q)).messageCount;
      return ready;
    };

    const takeover = async (): Promise<number> => {
      const began = Date.now();
      const markers = MARKER_ACCOUNTS.map((account) => {
        const id = timedId('evt', Date.now(), `_mark${faults.length}${account}`);
        expected.add(id);
        publish([requestOf(id, account, 0)]);
        return id;
      });
      const open = new Set(markers);
      while (open.size > 0 && Date.now() - began < TAKEOVER_BOUND_MS) {
        for (const id of [...open]) if (await rows.row(id).catch(() => null)) open.delete(id);
        if (open.size > 0) await sleep(50);
      }
      return Date.now() - began;
    };

    // the faults, each at a share of the stream, while it runs
    let sent = 0;
    const faultRun = (async () => {
      for (const { share, fault } of SCHEDULE) {
        while (sent < Math.floor(share * EVENTS)) await sleep(20);
        const atShare = sent / EVENTS;
        if (fault === 'kill -9 activity-writer') {
          const victim = writers.shift()!;
          await victim.stop('SIGKILL');
          const readyAtKill = await backlog();
          // the other two take its partitions; its replacement joins them as a standby or takes some back
          const takeoverMs = await takeover();
          const readyAfter = await backlog();
          writers.push(await startWriter(env));
          faults.push({
            fault,
            atShare,
            detail: `pid ${victim.process.pid} killed; every partition written again ${takeoverMs} ms after the kill (partition queues: ${readyAtKill} messages ready at the kill, ${readyAfter} when every marker was written)`,
            takeoverMs,
          });
        } else {
          const t = Date.now();
          await servers!.ferretdb.stop('SIGTERM');
          const back = await servers!.ferretdb.start(60000);
          faults.push({ fault, atShare, detail: `down ${back - t} ms` });
        }
      }
    })();

    // the stream: an open loop at RATE events a second; each event's attempt follows its request
    const t0 = Date.now();
    for (let n = 0; n < EVENTS; n++) {
      const due = t0 + (n * 1000) / RATE;
      if (due > Date.now()) await sleep(due - Date.now());
      const account = accountOf(n);
      const id = timedId('evt', Date.now(), `_c${n}`);
      expected.add(id);
      publish([requestOf(id, account, 1)]);
      setTimeout(() => publish([attemptOf(id, account)]), 20);
      sent = n + 1;
    }
    await faultRun;
    await depthConn.close();
    await sleep(100);
    await Promise.all([...inFlight]);

    // settle: every expected row there, none Pending (bounded)
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      tally = await tallyActivity(env.MONGODB_URL);
      if ((tally.rows >= expected.size && tally.pending === 0) || Date.now() > deadline) break;
      await sleep(3000);
    }
    const conn = await amqp.connect(servers.rabbitmq.url);
    try {
      deadLettered = (await (await conn.createChannel()).checkQueue(brokerNames(NAMESPACE).deadActivityQueue))
        .messageCount;
    } finally {
      await conn.close();
    }
    // eslint-disable-next-line no-console
    console.log(
      [
        `chaos (activity writers): ${EVENTS} events at ${RATE}/s over ${ACCOUNTS} accounts, ${WRITERS} writers, ${ACTIVITY_PARTITIONS} partitions`,
        ...faults.map((f) => `  at ${(f.atShare * 100).toFixed(0)} %: ${f.fault}: ${f.detail}`),
        `  rows ${tally.rows} of ${expected.size} expected; pending ${tally.pending}; attempts-only ${tally.attemptsOnly}; publish failures ${publishFailures}; dead-lettered ${deadLettered}`,
      ].join('\n'),
    );
    // the stream, the settle bound, and a few minutes for private servers, writers and the count
  },
  (EVENTS / RATE) * 1000 + SETTLE_MS + 240000,
);

afterAll(async () => {
  await broker?.close().catch(() => undefined);
  await reader?.close().catch(() => undefined);
  await Promise.all(started.map((s) => s.stop('SIGTERM').catch(() => null)));
  if (servers) {
    mkdirSync(path.join(servers.dir, 'services'), { recursive: true });
    for (const s of started)
      writeFileSync(path.join(servers.dir, 'services', `${s.name}-${s.process.pid}.log`), s.output());
  }
  await servers?.close();
}, 120000);

describe(`chaos: ${EVENTS} activity events, ${WRITERS} writers over ${ACTIVITY_PARTITIONS} partitions, writers killed and the store restarted`, () => {
  it('ran every fault: three writer kills and a store restart', () => {
    expect(faults.map((f) => f.fault)).toEqual(SCHEDULE.map((s) => s.fault));
  });

  it('every partition was written again after each kill (takeover time recorded)', () => {
    for (const f of faults.filter((x) => x.takeoverMs !== undefined))
      expect(f.takeoverMs!).toBeLessThan(TAKEOVER_BOUND_MS);
  });

  it('lost nothing: every event published has its row, and no other row exists', () => {
    expect(publishFailures).toBe(0);
    expect([...expected].filter((id) => !tally.accepted.has(id))).toEqual([]);
    expect(tally.rows).toBe(expected.size);
  });

  it('exactly one row per request, none left Pending, none made of attempts alone, nothing dead-lettered', () => {
    expect(tally.requests).toBe(expected.size);
    expect({
      pending: tally.pending,
      pendingIds: tally.pendingIds,
      attemptsOnly: tally.attemptsOnly,
      deadLettered,
    }).toEqual({ pending: 0, pendingIds: [], attemptsOnly: 0, deadLettered: 0 });
    expect(tally.byStatus).toEqual({ completed: expected.size });
  });
});
