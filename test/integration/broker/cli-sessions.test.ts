import { BrokerConnection, CliForwarder, openCliSessionQueue } from '@relay/broker';
import type { CliBacklogBounds, CliBacklogHandler, CliForwardHandler } from '@relay/broker';
import { brokerNames, CLI_FORWARD_V1, cliBacklogQueue, decodeMessage, DELIVERY_V1 } from '@relay/contracts';
import type { CliForwardV1, DeliveryMessageV1 } from '@relay/contracts';
import { deleteBrokerNamespace, eventually, infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';

/*
 * The route between the outputs deliverer and the `relay listen` sessions, on
 * the real RabbitMQ (docs/cli.md "How a delivery reaches its session").
 */
const { namespace } = testNamespace('clisessions');
const { logger } = testLogger('cli-sessions-test');
const connections: BrokerConnection[] = [];

async function connection(): Promise<BrokerConnection> {
  const c = new BrokerConnection({
    url: infra.rabbitmqUrl,
    logger,
    connectionName: 'cli-test',
    topology: { namespace, deliveryLimit: 5 },
  });
  await c.start();
  connections.push(c);
  return c;
}

const forward = (targetId: string, n = 1): CliForwardV1 => ({
  type: CLI_FORWARD_V1,
  event_id: `evt_${n}`,
  delivery_id: `dlv_${n}`,
  attempt: 1,
  target_id: targetId,
  endpoint_id: 'ep_1',
  headers: { 'content-type': 'text/plain' },
  body_base64: Buffer.from(`hello ${n}`).toString('base64'),
});
const ok = (status = 200) => ({ status, headers: {}, body: 'ok', duration_ms: 2 });

const BOUNDS: CliBacklogBounds = {
  maxDeliveries: 1_000,
  maxAgeMs: 600_000,
  expiresMs: 660_000,
  channel: 'outputs',
  drainWindow: 8,
  drainWindowBytes: 1_048_576,
};
/** what a delivery kept in a backlog looks like: the deliverer's message, its next attempt */
const kept = (targetId: string, n: number, receivedAt = new Date()): DeliveryMessageV1 => ({
  type: DELIVERY_V1,
  event_id: `evt_${n}`,
  delivery_id: `dlv_${n}`,
  attempt: 2,
  account_id: 'acc_1',
  endpoint_id: 'ep_1',
  target_id: targetId,
  target_kind: 'cli',
  received_at: receivedAt.toISOString(),
  request: { method: 'POST', source_ip: '127.0.0.1', headers: {}, query: '' },
  payload: { content_type: 'text/plain', body_base64: Buffer.from(`hello ${n}`).toString('base64') },
});

let forwarder: CliForwarder;
let sessions: BrokerConnection;

beforeAll(async () => {
  forwarder = new CliForwarder(await connection(), namespace, logger, BOUNDS);
  await forwarder.start();
  sessions = await connection();
});

afterAll(async () => {
  const ch = await connections[0]!.openChannel();
  for (const target of ['tg_a', 'tg_b', 'tg_c', 'tg_d', 'tg_e', 'tg_k', 'tg_o', 'tg_h', 'tg_late', 'tg_full', 'tg_old'])
    await ch.deleteQueue(cliBacklogQueue(namespace, target));
  await Promise.all(connections.map((c) => c.close()));
  await deleteBrokerNamespace(namespace);
});

function opened(
  targetId: string,
  onForward: CliForwardHandler,
  inFlight = 10,
  onKept: CliBacklogHandler = async () => ({ recorded: Promise.resolve() }),
) {
  return openCliSessionQueue(sessions, {
    namespace,
    targetId,
    inFlight,
    maxWaiting: 100,
    backlog: BOUNDS,
    logger,
    onForward,
    onKept,
    onLost: () => undefined,
  });
}

/** a session whose backlog is drained and whose live queue is bound */
async function session(targetId: string, onForward: CliForwardHandler, inFlight = 10, onKept?: CliBacklogHandler) {
  const s = await opened(targetId, onForward, inFlight, onKept);
  await s.start();
  return s;
}

describe('CLI sessions over the broker', () => {
  it('no session bound for the target: no_session at once, not a timeout', async () => {
    await expect(forwarder.forward(forward('tg_none'), 10_000)).resolves.toBe('no_session');
  });

  it('a session receives the forward and its answer is the outcome', async () => {
    const seen: CliForwardV1[] = [];
    const s = await session('tg_a', (f, answer) => {
      seen.push(f);
      answer(ok(201));
    });
    await expect(forwarder.forward(forward('tg_a'), 10_000)).resolves.toEqual(ok(201));
    expect(seen.map((f) => f.delivery_id)).toEqual(['dlv_1']);
    await s.close('test over');
  });

  it('a session that ends with forwards unanswered answers them as gone: retried at once, not after the wait', async () => {
    let got = 0;
    const s = await session('tg_b', () => void got++);
    const pending = forwarder.forward(forward('tg_b'), 60_000);
    await eventually(async () => got === 1, 10_000, 'the forward at the session');
    await s.close('the CLI went away');
    await expect(pending).resolves.toBe('session_gone');
    // and the queue is gone with the session
    await expect(forwarder.forward(forward('tg_b', 2), 10_000)).resolves.toBe('no_session');
  });

  it('holds at most in_flight forwards per session; the rest wait in its queue', async () => {
    const held: Array<() => void> = [];
    const s = await session('tg_c', (_f, answer) => void held.push(() => answer(ok())), 2);
    const all = [1, 2, 3, 4].map((n) => forwarder.forward(forward('tg_c', n), 30_000));
    await eventually(async () => held.length === 2, 10_000, 'two forwards held');
    await new Promise((r) => setTimeout(r, 300));
    expect(held.length).toBe(2);
    held.splice(0).forEach((a) => a());
    await eventually(async () => held.length === 2, 10_000, 'the next two');
    held.splice(0).forEach((a) => a());
    await expect(Promise.all(all)).resolves.toEqual([ok(), ok(), ok(), ok()]);
    await s.close('done');
  });

  it('two sessions of one target both receive a forward; the first answer is the outcome', async () => {
    const got: string[] = [];
    const a = await session('tg_d', (_f, answer) => (got.push('a'), answer(ok(200))));
    const b = await session('tg_d', (_f, answer) => (got.push('b'), setTimeout(() => answer(ok(500)), 200)));
    await expect(forwarder.forward(forward('tg_d'), 10_000)).resolves.toEqual(ok(200));
    await eventually(async () => got.length === 2, 10_000, 'both sessions');
    await a.close('done');
    await b.close('done');
  });

  it('nobody answers: timeout', async () => {
    const s = await session('tg_e', () => undefined);
    await expect(forwarder.forward(forward('tg_e'), 500)).resolves.toBe('timeout');
    await s.close('done');
  });
});

describe('the backlog of a CLI session target', () => {
  it('keeps deliveries while no session listens; the next session is told how many and drains them in order before live forwards', async () => {
    for (let n = 1; n <= 20; n++) await expect(forwarder.keep(kept('tg_k', n))).resolves.toBe(true);
    const drained: string[] = [];
    const s = await opened(
      'tg_k',
      (_f, answer) => answer(ok()),
      10,
      async (d) => (drained.push(d.delivery_id), { recorded: Promise.resolve() }),
    );
    expect(s.backlogCount).toBe(20);
    await s.start();
    expect(drained).toEqual(Array.from({ length: 20 }, (_, i) => `dlv_${i + 1}`));
    await expect(forwarder.forward(forward('tg_k', 21), 10_000)).resolves.toEqual(ok());
    await s.close('done');
  });

  it('an entry appended after the live queue is bound (a forward that found no session just before) still reaches the session', async () => {
    const drained: string[] = [];
    const s = await session(
      'tg_late',
      () => undefined,
      10,
      async (d) => (drained.push(d.delivery_id), { recorded: Promise.resolve() }),
    );
    await forwarder.keep(kept('tg_late', 1));
    await eventually(async () => drained.length === 1, 10_000, 'the late entry at the session');
    expect(drained).toEqual(['dlv_1']);
    await s.close('done');
  });

  it('entries appended a few places out of acceptance order (concurrent attempts) are drained in acceptance order', async () => {
    const t = Date.now();
    for (const n of [2, 1, 3, 5, 4]) await forwarder.keep(kept('tg_o', n, new Date(t + n)));
    const drained: string[] = [];
    const s = await session(
      'tg_o',
      () => undefined,
      10,
      async (d) => (drained.push(d.delivery_id), { recorded: Promise.resolve() }),
    );
    expect(drained).toEqual(['dlv_1', 'dlv_2', 'dlv_3', 'dlv_4', 'dlv_5']);
    await s.close('done');
  });

  it('while the backlog drains, a forward finds no session (so it is kept behind the others); a delivery the session stops on stays at the head', async () => {
    await forwarder.keep(kept('tg_h', 1));
    await forwarder.keep(kept('tg_h', 2));
    let release: ((r: 'stop') => void) | null = null;
    const first = await opened(
      'tg_h',
      () => undefined,
      10,
      () => new Promise((r) => (release = r)),
    );
    const started = first.start();
    const stop = await eventually(async () => release, 10_000, 'the first entry at the session');
    await expect(forwarder.forward(forward('tg_h', 3), 10_000)).resolves.toBe('no_session');
    stop('stop');
    await started;
    await first.close('the CLI went away');

    const drained: string[] = [];
    const second = await session(
      'tg_h',
      () => undefined,
      10,
      async (d) => (drained.push(d.delivery_id), { recorded: Promise.resolve() }),
    );
    expect(drained).toEqual(['dlv_1', 'dlv_2']);
    await second.close('done');
  });
});

describe('the backlog bounds', () => {
  const tight = (b: Partial<CliBacklogBounds>) =>
    connection().then(async (c) => {
      const f = new CliForwarder(c, namespace, logger, { ...BOUNDS, ...b });
      await f.start();
      return f;
    });

  it('past x-max-length the newest is refused (the deliverer retries it on the schedule); what is kept stays', async () => {
    const f = await tight({ maxDeliveries: 3 });
    for (let n = 1; n <= 3; n++) await expect(f.keep(kept('tg_full', n))).resolves.toBe(true);
    await expect(f.keep(kept('tg_full', 4))).resolves.toBe(false);
    const ch = await (await connection()).openChannel();
    const ids: string[] = [];
    for (
      let got = await ch.get(cliBacklogQueue(namespace, 'tg_full'));
      got;
      got = await ch.get(cliBacklogQueue(namespace, 'tg_full'))
    )
      ids.push(decodeMessage(got.content, [DELIVERY_V1]).delivery_id);
    expect(ids).toEqual(['dlv_1', 'dlv_2', 'dlv_3']);
    await ch.close();
  });

  it("an entry older than x-message-ttl goes back to its channel's work queue, marked as expired from the backlog", async () => {
    const f = await tight({ maxAgeMs: 50, expiresMs: 60_000 });
    await expect(f.keep(kept('tg_old', 1))).resolves.toBe(true);
    const ch = await (await connection()).openChannel();
    const work = brokerNames(namespace).deliveryQueue('outputs');
    const back = await eventually(
      async () => (await ch.get(work, { noAck: true })) || null,
      10_000,
      'the expired entry in the work queue',
    );
    expect(decodeMessage(back.content, [DELIVERY_V1])).toMatchObject({ delivery_id: 'dlv_1', target_id: 'tg_old' });
    // what the deliverer tells it by: recorded failed, not attempted again
    expect(back.properties.headers).toMatchObject({
      'x-first-death-reason': 'expired',
      'x-first-death-queue': cliBacklogQueue(namespace, 'tg_old'),
    });
    await ch.close();
  });
});
