import { Registry } from 'prom-client';
import { ACTIVITY_ATTEMPT_V1 } from '@relay/contracts';
import type { ActivityAttemptV1, DeliveryMessageV1, HeldOrderKey } from '@relay/contracts';
import { PassThrough } from 'node:stream';
import { createLogger } from '@relay/logging';
import { HeldKeys } from './held-keys';

const head = (id: string, key: string, attempt = 2): DeliveryMessageV1 =>
  ({
    delivery_id: `dlv_${id}`,
    event_id: `evt_${id}`,
    account_id: 'acc_1',
    endpoint_id: 'ep_1',
    target_id: 'tg_1',
    target_kind: 'webhook',
    attempt,
    order_key: key,
  }) as DeliveryMessageV1;
/** the attempt `n` of head `id`, as handleDelivery records a failed one */
const failed = (id: string, n: number): ActivityAttemptV1 => ({
  type: ACTIVITY_ATTEMPT_V1,
  event_id: `evt_${id}`,
  delivery_id: `dlv_${id}`,
  account_id: 'acc_1',
  endpoint_id: 'ep_1',
  target_id: 'tg_1',
  target_kind: 'webhook',
  attempt: n,
  attempted_at: new Date(999_000).toISOString(),
  state: 'retrying',
  status_code: 503,
  duration_ms: 4,
  error: 'HTTP 503',
  next_attempt_at: new Date(1_060_000).toISOString(),
});
const retrying = (recorded: ActivityAttemptV1 | null) => ({ reason: 'retrying', untilMs: 1_060_000, recorded });

function setup() {
  let now = 1_000_000;
  const stored = new Map<string, HeldOrderKey>();
  const told: string[] = [];
  const recorded: ActivityAttemptV1[] = [];
  const registry = new Registry();
  const held = new HeldKeys({
    store: {
      put: async (_t, e) => void stored.set(e.key, e),
      remove: async (_t, key) => void stored.delete(key),
    },
    stuckAfterMs: 1000,
    onStuck: async (d) => void told.push(d.event_id),
    record: async (a) => void recorded.push(a),
    logger: createLogger({ service: 'test', level: 'error', stream: new PassThrough() }),
    registry,
    now: () => now,
  });
  return { held, stored, told, recorded, registry, advance: (ms: number) => (now += ms) };
}

describe('HeldKeys (docs/ordering.md "Held keys")', () => {
  it('stores a key while its head waits, since its first wait, and forgets it when the head ends', async () => {
    const { held, stored, advance } = setup();
    held.waiting('tg_1\nA', head('1', 'A', 2), retrying(failed('1', 1)));
    advance(500);
    held.waiting('tg_1\nA', head('1', 'A', 3), retrying(failed('1', 2)));
    await Promise.resolve();
    expect(stored.get('A')).toEqual({
      key: 'A',
      since: new Date(1_000_000).toISOString(),
      event_id: 'evt_1',
      attempt: 3,
      reason: 'retrying',
      stuck: false,
    });
    held.ended('tg_1\nA');
    await Promise.resolve();
    expect(stored.size).toBe(0);
    expect(held.size).toBe(0);
  });

  it('marks a head that waited past the bound stuck once: stored, told and counted; the next head starts afresh', async () => {
    const { held, stored, told, registry, advance } = setup();
    held.waiting('tg_1\nA', head('1', 'A'), retrying(failed('1', 1)));
    held.sweep();
    expect(told).toEqual([]);
    advance(1000);
    held.sweep();
    held.sweep();
    await Promise.resolve();
    expect(told).toEqual(['evt_1']);
    expect(stored.get('A')?.stuck).toBe(true);
    expect((await registry.getSingleMetric('relay_ordering_keys_stuck_total')!.get()).values[0]!.value).toBe(1);
    expect((await registry.getSingleMetric('relay_ordering_held_keys')!.get()).values).toEqual(
      expect.arrayContaining([expect.objectContaining({ labels: { stuck: 'true' }, value: 1 })]),
    );
    held.ended('tg_1\nA');
    held.waiting('tg_1\nA', head('2', 'A'), { reason: 'rate_limit', untilMs: 1_002_000, recorded: null });
    await Promise.resolve();
    expect(stored.get('A')).toMatchObject({ event_id: 'evt_2', stuck: false, reason: 'rate_limit' });
  });

  it("marks a stuck head's row: its latest attempt recorded again with the key, and its later attempts too", async () => {
    const { held, recorded, advance } = setup();
    const before = failed('1', 1);
    held.waiting('tg_1\nA', head('1', 'A', 2), retrying(before));
    expect(held.marked('tg_1\nA', failed('1', 1))).toEqual(before);
    advance(1000);
    held.sweep();
    const stuckSince = new Date(1_001_000).toISOString();
    expect(recorded).toEqual([{ ...before, ordering: { key: 'A', stuck_since: stuckSince } }]);
    // its next attempt, still the head: marked; another head's attempt: not
    expect(held.marked('tg_1\nA', failed('1', 2)).ordering).toEqual({ key: 'A', stuck_since: stuckSince });
    expect(held.marked('tg_1\nA', failed('2', 1))).not.toHaveProperty('ordering');
    held.ended('tg_1\nA');
    expect(held.marked('tg_1\nA', failed('1', 2))).not.toHaveProperty('ordering');
  });

  it('a head the gate held before any attempt: its next attempt stands in, marked as not made', async () => {
    const { held, recorded, advance } = setup();
    held.waiting('tg_1\nP', head('3', 'P', 1), { reason: 'paused', untilMs: 1_030_000, recorded: null });
    advance(1000);
    held.sweep();
    expect(recorded).toEqual([
      {
        type: ACTIVITY_ATTEMPT_V1,
        event_id: 'evt_3',
        delivery_id: 'dlv_3',
        account_id: 'acc_1',
        endpoint_id: 'ep_1',
        target_id: 'tg_1',
        target_kind: 'webhook',
        attempt: 1,
        attempted_at: new Date(1_000_000).toISOString(),
        state: 'retrying',
        status_code: null,
        duration_ms: 0,
        error: 'not attempted yet: held by the target gate (paused)',
        next_attempt_at: new Date(1_030_000).toISOString(),
        ordering: { key: 'P', stuck_since: new Date(1_001_000).toISOString() },
      },
    ]);
  });
});
