import { BrokerConnection, CliForwarder, openCliSessionQueue } from '@relay/broker';
import type { CliForwardHandler } from '@relay/broker';
import { CLI_FORWARD_V1 } from '@relay/contracts';
import type { CliForwardV1 } from '@relay/contracts';
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

let forwarder: CliForwarder;
let sessions: BrokerConnection;

beforeAll(async () => {
  forwarder = new CliForwarder(await connection(), namespace, logger);
  await forwarder.start();
  sessions = await connection();
});

afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await deleteBrokerNamespace(namespace);
});

function session(targetId: string, onForward: CliForwardHandler, inFlight = 10) {
  return openCliSessionQueue(sessions, {
    namespace,
    targetId,
    inFlight,
    maxWaiting: 100,
    logger,
    onForward,
    onLost: () => undefined,
  });
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
