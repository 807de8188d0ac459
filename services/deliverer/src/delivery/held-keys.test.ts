import { Registry } from 'prom-client';
import type { DeliveryMessageV1, HeldOrderKey } from '@relay/contracts';
import { PassThrough } from 'node:stream';
import { createLogger } from '@relay/logging';
import { HeldKeys } from './held-keys';

const head = (id: string, key: string): DeliveryMessageV1 =>
  ({ delivery_id: `dlv_${id}`, event_id: `evt_${id}`, target_id: 'tg_1', order_key: key }) as DeliveryMessageV1;

function setup() {
  let now = 1_000_000;
  const stored = new Map<string, HeldOrderKey>();
  const told: string[] = [];
  const registry = new Registry();
  const held = new HeldKeys({
    store: {
      put: async (_t, e) => void stored.set(e.key, e),
      remove: async (_t, key) => void stored.delete(key),
    },
    stuckAfterMs: 1000,
    onStuck: async (d) => void told.push(d.event_id),
    logger: createLogger({ service: 'test', level: 'error', stream: new PassThrough() }),
    registry,
    now: () => now,
  });
  return { held, stored, told, registry, advance: (ms: number) => (now += ms) };
}

describe('HeldKeys (docs/ordering.md "Held keys")', () => {
  it('stores a key while its head waits, since its first wait, and forgets it when the head ends', async () => {
    const { held, stored, advance } = setup();
    held.waiting('tg_1\nA', head('1', 'A'), 2, 'retrying');
    advance(500);
    held.waiting('tg_1\nA', head('1', 'A'), 3, 'retrying');
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
    held.waiting('tg_1\nA', head('1', 'A'), 2, 'retrying');
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
    held.waiting('tg_1\nA', head('2', 'A'), 2, 'rate_limit');
    await Promise.resolve();
    expect(stored.get('A')).toMatchObject({ event_id: 'evt_2', stuck: false, reason: 'rate_limit' });
  });
});
