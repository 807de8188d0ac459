import { must } from '@relay/client';
import type { Target } from '@relay/client';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * The breaker (docs/delivery-limits.md): a webhook target answering 500. Its breaker opens
 * within its window, attempts stop (the receiver sees only the probes, one per cool-down), the
 * probe closes it once the receiver answers 200, and every held delivery then arrives. By hand:
 * a paused target gets nothing until resumed, then everything. Each transition is made once
 * (the account's events follow them: docs/alerts.md). Every service is its own process.
 */
const EVENTS = 30;
const BREAKER = { failure_rate_pct: 50, min_attempts: 10, window_s: 10, cool_down_s: 2, flag_after_open_s: 3600 };

let stack: Stack;
let receiver: TestReceiver;
let failing = true;
const arrivals: Array<{ at: number; eventId: string; status: number }> = [];
let endpointId = '';
let targetId = '';

const send = async (n: number, tag: string): Promise<void> => {
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tag, i }),
    });
    expect(res.status).toBe(202);
  }
};
const state = async (): Promise<Target['breaker_state']> =>
  (
    await must(
      stack.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', { params: { path: { endpointId, targetId } } }),
    )
  ).breaker_state;
const delivered = (): Set<string> => new Set(arrivals.filter((a) => a.status === 200).map((a) => a.eventId));

beforeAll(async () => {
  receiver = await TestReceiver.start();
  receiver.respondWith((req) => {
    const status = failing ? 500 : 200;
    arrivals.push({ at: Date.now(), eventId: String(req.headers['x-relay-event-id']), status });
    return { status, body: failing ? 'down' : 'ok' };
  });
  // private: it reads the deliverer's process-wide breaker and hold counters
  stack = await startStack('breaker', { private: true });
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'flaky' } }))).id;
  const target = await stack.client.POST('/v1/endpoints/{endpointId}/targets', {
    params: { path: { endpointId } },
    // retries 1 s apart, enough of them that none is used up before the breaker holds the rest
    body: {
      kind: 'webhook',
      name: 'flaky receiver',
      config: { url: receiver.url('/hook'), enforce_https: false },
      retry_schedule_ms: Array(15).fill(1000),
      breaker: BREAKER,
    },
  });
  expect(target.response.status).toBe(201);
  targetId = target.data!.id;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

describe('the circuit breaker of a target that answers 500', () => {
  it('opens within its window; then only probes reach the receiver; a good probe closes it and every held delivery arrives', async () => {
    await send(EVENTS, 'a');
    const opened = await eventually(
      async () => {
        const s = await state();
        return s.state === 'open' || s.state === 'half_open' ? s : undefined;
      },
      60_000,
      'the breaker to open',
    );
    expect(opened.reason).toMatch(/attempts failed in 10 s|probing after/);

    // once every deliverer has heard, only probes go out: at most one per cool-down (2 s)
    await new Promise((r) => setTimeout(r, 1500));
    const before = arrivals.length;
    const watchStarted = Date.now();
    await eventually(async () => arrivals.length >= before + 2, 30_000, 'two probes');
    const watched = (Date.now() - watchStarted) / 1000;
    expect(arrivals.length - before).toBeLessThanOrEqual(Math.ceil(watched / BREAKER.cool_down_s) + 2);
    expect(delivered().size).toBe(0);

    failing = false;
    await eventually(async () => (await state()).state === 'closed', 30_000, 'the probe to close the breaker');
    expect((await state()).reason).toBe('probe succeeded');
    await eventually(
      async () => delivered().size === EVENTS,
      120_000,
      `all ${EVENTS} held deliveries (so far ${delivered().size})`,
    );
  }, 300_000);

  it('each transition was made once, by one deliverer: the opens (the first and any after a failed probe) and one close', async () => {
    const text = await (await fetch(`${stack.services['webhook-deliverer']!.healthUrl}/metrics`)).text();
    const count = (to: string): number =>
      Number(new RegExp(`relay_target_breaker_transitions_total\\{to="${to}"\\} (\\d+)`).exec(text)?.[1] ?? NaN);
    expect(count('open')).toBeGreaterThanOrEqual(1);
    expect(count('closed')).toBe(1);
    // every probe let through was a transition to half-open: one per open episode
    expect(count('half_open')).toBe(count('open'));
  });

  it('paused by hand: nothing is sent until resumed, then every held delivery arrives', async () => {
    const paused = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets/{targetId}/pause', {
        params: { path: { endpointId, targetId } },
      }),
    );
    expect(paused.breaker_state.state).toBe('paused');
    const before = arrivals.length;
    await send(5, 'p');
    // the deliverers hold them: wait for the holds to show in their metrics, then see the receiver got none
    await eventually(
      async () => {
        const text = await (await fetch(`${stack.services['webhook-deliverer']!.healthUrl}/metrics`)).text();
        return /relay_delivery_held_total\{kind="webhook",reason="paused"\} ([5-9]|\d\d)/.test(text);
      },
      30_000,
      'five deliveries held as paused',
    );
    expect(arrivals.length).toBe(before);
    const resumed = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets/{targetId}/resume', {
        params: { path: { endpointId, targetId } },
      }),
    );
    expect(resumed.breaker_state.state).toBe('closed');
    await eventually(async () => delivered().size === EVENTS + 5, 120_000, 'the five held deliveries');
  }, 200_000);
});
