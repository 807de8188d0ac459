import amqp from 'amqplib';
import type { PrivateServers } from '../../support/private-servers';
import type { RunningService } from '../../support/services';
import type { ChaosStack } from './chaos-stack';

export type FaultName =
  | 'kill -9 webhook-deliverer'
  | 'restart RabbitMQ'
  | 'restart the store (FerretDB)'
  | 'restart Redis'
  | 'kill -9 activity-writer';

/** One fault as it happened, times in ms since the epoch. */
export interface FaultRecord {
  name: FaultName;
  /** share of the stream's events sent when the fault began */
  atShare: number;
  startedAt: number;
  endedAt: number;
  detail: string;
}

/** The broker restart as a client saw it. */
export interface BrokerOutage {
  stopIssuedAt: number;
  /** the broker closed an idle client connection of the suite's own (or the stop was issued, if none closed) */
  goneAt: number;
  /** the old node's process exited */
  stoppedAt: number;
  /** the new node answered an AMQP handshake (the successful attempt began then) */
  backAt: number;
  /** messages waiting in the long retry tier at the moment of the stop */
  retriesWaiting: number;
}

/**
 * The faults of one chaos run, in order, each at a share of the events sent (so they land at the
 * same point of any run length): three webhook-deliverer kills, a RabbitMQ restart, a store
 * restart, a Redis restart, an activity-writer kill. Servers are restarted in order (SIGTERM,
 * then started again; CHAOS_SERVER_STOP=SIGKILL crashes them instead); services are killed with SIGKILL and replaced by a new process, as a
 * supervisor would. Nothing else is ever restarted: the gateway and the deliverers that keep
 * running must reconnect on their own.
 */
export const SCHEDULE: ReadonlyArray<{ share: number; name: FaultName }> = [
  { share: 0.1, name: 'kill -9 webhook-deliverer' },
  { share: 0.2, name: 'restart RabbitMQ' },
  { share: 0.45, name: 'kill -9 webhook-deliverer' },
  { share: 0.55, name: 'restart the store (FerretDB)' },
  { share: 0.65, name: 'restart Redis' },
  { share: 0.75, name: 'kill -9 activity-writer' },
  { share: 0.85, name: 'kill -9 webhook-deliverer' },
];

export interface FaultContext {
  servers: PrivateServers;
  stack: ChaosStack;
  /** events sent so far, and in all */
  progress(): number;
  total: number;
  /** the long retry tier's queue, read just before the broker stops */
  longRetryQueue: string;
  /** processes the suite killed on purpose */
  killed: RunningService[];
  /** how servers are stopped before they start again: SIGTERM (an orderly restart) or SIGKILL (a crash) */
  serverStop: 'SIGTERM' | 'SIGKILL';
}

export interface FaultRun {
  faults: FaultRecord[];
  broker: BrokerOutage | null;
}

/** Runs the schedule while the stream runs; every wait is bounded. */
export async function runFaults(ctx: FaultContext): Promise<FaultRun> {
  const run: FaultRun = { faults: [], broker: null };
  for (const { share, name } of SCHEDULE) {
    // bounded: the stream always ends, and the last fault comes before its end
    while (ctx.progress() < Math.floor(share * ctx.total) && ctx.progress() < ctx.total) await sleep(20);
    const startedAt = Date.now();
    const atShare = ctx.progress() / ctx.total;
    let detail: string;
    if (name === 'kill -9 webhook-deliverer') detail = await replace(ctx, 'webhook-deliverer');
    else if (name === 'kill -9 activity-writer') detail = await replace(ctx, 'activity-writer');
    else if (name === 'restart RabbitMQ') {
      run.broker = await restartBroker(ctx);
      detail = `down ${run.broker.backAt - run.broker.goneAt} ms (stop took ${run.broker.stoppedAt - run.broker.stopIssuedAt} ms); ${run.broker.retriesWaiting} retries waiting in the long tier at the stop`;
    } else {
      const server = name === 'restart Redis' ? ctx.servers.redis : ctx.servers.ferretdb;
      await server.stop(ctx.serverStop);
      const down = Date.now();
      const back = await server.start(60000);
      detail = `down ${back - startedAt} ms (stopped after ${down - startedAt} ms)`;
    }
    run.faults.push({ name, atShare, startedAt, endedAt: Date.now(), detail });
  }
  return run;
}

/** SIGKILL one instance and start a new one in its place (the supervisor's part, not Relay's). */
async function replace(ctx: FaultContext, name: 'webhook-deliverer' | 'activity-writer'): Promise<string> {
  const { stack } = ctx;
  const victim = name === 'activity-writer' ? stack.writer : stack.deliverers[0]!;
  await victim.stop('SIGKILL');
  ctx.killed.push(victim);
  const fresh = await stack.startService(name);
  if (name === 'activity-writer') stack.writer = fresh;
  else stack.deliverers = [...stack.deliverers.slice(1), fresh];
  return `pid ${victim.process.pid} killed, pid ${fresh.process.pid} ready`;
}

async function restartBroker(ctx: FaultContext): Promise<BrokerOutage> {
  const url = ctx.servers.rabbitmq.url;
  // an idle connection of our own: when the broker closes it, the broker has gone away for every client
  const observer = await amqp.connect(url);
  observer.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => observer.once('close', () => resolve(Date.now())));
  const ch = await observer.createChannel();
  const retriesWaiting = (await ch.checkQueue(ctx.longRetryQueue)).messageCount;
  const stopIssuedAt = Date.now();
  const stopped = ctx.servers.rabbitmq.stop(ctx.serverStop);
  const goneAt = await Promise.race([closed, stopped.then(() => stopIssuedAt)]);
  await stopped;
  const stoppedAt = Date.now();
  const backAt = await ctx.servers.rabbitmq.start(180000);
  return { stopIssuedAt, goneAt, stoppedAt, backAt, retriesWaiting };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
