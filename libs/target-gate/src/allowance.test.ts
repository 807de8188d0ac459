import type { TargetRecord } from '@relay/store';
import type { EffectiveLimits } from './limits';
import { ALLOWANCE_VALID_MS, batchSizes, MAX_BATCH, TargetAllowances } from './allowance';
import type { BatchAnswer } from './allowance';
import type { BatchRequest } from './breaker-redis';
import type { BreakerView } from './breaker-redis';

/*
 * A deliverer's share of a limited target's allowance (docs/delivery-limits.md "Batches of a
 * limit") against an in-memory fake of the GATE and GIVE_BACK scripts that keeps the shared
 * counts as Redis does: how many calls a run of deliveries costs, what is given back and when,
 * and that the share never spends past its deadline. The scripts on the real Redis, with two
 * gates sharing one limit: test/integration/delivery/target-allowance.test.ts.
 */

const closed: BreakerView = { state: 'closed', since: 0, reason: '', seq: 0 };
const NOW = new Date('2030-01-01T00:00:00Z');
const target = (id = 'tg_1'): TargetRecord => ({
  id,
  account_id: 'acc',
  endpoint_id: 'ep',
  kind: 'webhook',
  name: 't',
  enabled: true,
  config: {},
  flagged: null,
  created_at: NOW,
  updated_at: NOW,
});
const BIG: EffectiveLimits = { rate: 10_000, windowMs: 1000, maxInFlight: 1000 };
/** a sixth of the deliverer's 60 s lease */
const SLOT_VALID_MS = 10_000;

/** The shared counts of one target: reserved tokens and slots, as the scripts keep them. */
function setup(opts: { rate?: number; slots?: number; fail?: boolean } = {}) {
  let clock = 0;
  let call = 0;
  const asked: BatchRequest[] = [];
  const givenBack: Array<{ tokens: string[]; slots: string[] }> = [];
  const tokensHeld = new Set<string>();
  const slotsHeld = new Set<string>();
  const allowances = new TargetAllowances({
    now: () => clock,
    ask: async (_t, limits, batch): Promise<BatchAnswer> => {
      asked.push(batch);
      if (opts.fail) throw new Error('Connection is closed.');
      for (const m of batch.giveBack.tokens) tokensHeld.delete(m);
      for (const m of batch.giveBack.slots) slotsHeld.delete(m);
      const lease = `L${++call}`;
      const freeSlots = (opts.slots ?? limits.maxInFlight ?? Infinity) - slotsHeld.size;
      const freeTokens = (opts.rate ?? limits.rate ?? Infinity) - tokensHeld.size;
      if (batch.slots > 0 && freeSlots <= 0)
        return { verdict: 'hold', reason: 'in_flight', waitMs: 1000, view: closed, won: false, flag: false };
      if (batch.tokens > 0 && freeTokens <= 0)
        return { verdict: 'hold', reason: 'rate', waitMs: 100, view: closed, won: false, flag: false };
      const tokens = Array.from({ length: Math.min(batch.tokens, freeTokens) }, (_, i) => `${lease}#${i + 1}`);
      const slots = Array.from({ length: Math.min(batch.slots, freeSlots) }, (_, i) =>
        i === 0 ? lease : `${lease}#${i + 1}`,
      );
      tokens.forEach((m) => tokensHeld.add(m));
      slots.forEach((m) => slotsHeld.add(m));
      return { verdict: 'go', lease, view: closed, won: false, flag: false, tokens, slots };
    },
    giveBack: async (_id, tokens, slots) => {
      givenBack.push({ tokens: [...tokens], slots: [...slots] });
      tokens.forEach((m) => tokensHeld.delete(m));
      slots.forEach((m) => slotsHeld.delete(m));
    },
    warn: () => undefined,
    slotValidMs: SLOT_VALID_MS,
  });
  return { allowances, asked, givenBack, tokensHeld, slotsHeld, tick: (ms: number) => (clock += ms) };
}

describe('batch sizes: from the target’s own limits', () => {
  it.each([
    ['Slack’s 1 a second', { rate: 1, windowMs: 1000, maxInFlight: null }, null],
    ['Discord’s 30 a minute', { rate: 30, windowMs: 60_000, maxInFlight: null }, null],
    ['Teams’ 4 a second', { rate: 4, windowMs: 1000, maxInFlight: null }, null],
    ['5 in flight', { rate: null, windowMs: 1000, maxInFlight: 5 }, null],
    ['10,000 a second but 5 in flight', { rate: 10_000, windowMs: 1000, maxInFlight: 5 }, null],
    ['20 a second', { rate: 20, windowMs: 1000, maxInFlight: null }, { tokens: 2, slots: 0 }],
    ['20 in flight', { rate: null, windowMs: 1000, maxInFlight: 20 }, { tokens: 0, slots: 2 }],
    ['10,000 a second, 1,000 in flight', BIG, { tokens: MAX_BATCH, slots: MAX_BATCH }],
  ] as const)('%s → %j', (_name, limits, sizes) => {
    expect(batchSizes(limits)).toEqual(sizes);
  });
});

describe('a deliverer’s share of a limited target', () => {
  it('100 deliveries one after another cost 2 calls: 64 tokens and 64 slots, the slots carrying the next deliveries, then 64 tokens more', async () => {
    const { allowances, asked } = setup();
    const sizes = batchSizes(BIG)!;
    for (let i = 0; i < 100; i++) {
      const pass = await allowances.admit(target(), BIG, sizes);
      expect(pass).toMatchObject({ verdict: 'go', lease: expect.any(String) });
      expect(allowances.release('tg_1', (pass as { lease: string }).lease)).toBe(true);
    }
    expect(asked.map((b) => [b.tokens, b.slots, b.validMs])).toEqual([
      [64, 64, ALLOWANCE_VALID_MS],
      [64, 0, ALLOWANCE_VALID_MS],
    ]);
  });

  it('deliveries arriving together wait for one call instead of each making its own', async () => {
    const { allowances, asked } = setup();
    const passes = await Promise.all(
      Array.from({ length: 10 }, () => allowances.admit(target(), BIG, batchSizes(BIG)!)),
    );
    expect(new Set(passes.map((p) => p?.verdict))).toEqual(new Set(['go']));
    // ten different slots: each delivery in flight holds its own
    expect(new Set(passes.map((p) => (p as { lease: string }).lease)).size).toBe(10);
    expect(asked).toHaveLength(1);
  });

  it('hundreds of deliveries at once (a webhook deliverer runs 256): each call takes enough for those waiting, at most 4 batches’ worth', async () => {
    const { allowances, asked } = setup();
    const passes = await Promise.all(
      Array.from({ length: 256 }, () => allowances.admit(target(), BIG, batchSizes(BIG)!)),
    );
    expect(passes.every((p) => p?.verdict === 'go')).toBe(true);
    expect(new Set(passes.map((p) => (p as { lease: string }).lease)).size).toBe(256);
    expect(asked.length).toBeLessThanOrEqual(4);
    expect(Math.max(...asked.map((b) => Math.max(b.tokens, b.slots)))).toBeLessThanOrEqual(4 * MAX_BATCH);
  });

  it('tokens past their 100 ms and slots idle for 100 ms go back; a slot starts attempts for 10 s at most, then goes back with the report', async () => {
    const { allowances, asked, givenBack, tokensHeld, slotsHeld, tick } = setup();
    const sizes = batchSizes(BIG)!;
    const pass = (await allowances.admit(target(), BIG, sizes)) as { lease: string };
    tick(ALLOWANCE_VALID_MS);
    await allowances.sweep();
    expect(givenBack.map((g) => [g.tokens.length, g.slots.length])).toEqual([[63, 63]]);
    // the spent token counts on in the log; the busy slot is still in flight
    expect([tokensHeld.size, slotsHeld.size]).toEqual([1, 1]);
    // its attempt ended within the slot's 10 s: kept for this process's next delivery, back after 100 ms idle
    expect(allowances.release('tg_1', pass.lease)).toBe(true);
    tick(ALLOWANCE_VALID_MS);
    await allowances.sweep();
    expect(givenBack.map((g) => [g.tokens.length, g.slots.length])).toEqual([
      [63, 63],
      [0, 1],
    ]);
    expect(slotsHeld.size).toBe(0);
    expect(allowances.size).toBe(0);
    // an attempt that ends after its slot's 10 s: the slot goes back with the batch's report, not to the share
    const late = (await allowances.admit(target(), BIG, sizes)) as { lease: string };
    expect(asked).toHaveLength(2);
    tick(SLOT_VALID_MS);
    expect(allowances.release('tg_1', late.lease)).toBe(false);
  });

  it('what a share holds when its next call is made goes back with that call', async () => {
    const { allowances, asked, tick } = setup();
    const sizes = batchSizes(BIG)!;
    const first = (await allowances.admit(target(), BIG, sizes)) as { lease: string };
    allowances.release('tg_1', first.lease);
    tick(ALLOWANCE_VALID_MS + 1);
    await allowances.admit(target(), BIG, sizes);
    expect([asked[1]!.giveBack.tokens.length, asked[1]!.giveBack.slots.length]).toEqual([63, 64]);
  });

  it('a limit Redis says is reached holds the delivery; a partial grant is spent and then held', async () => {
    const { allowances } = setup({ slots: 3 });
    const sizes = batchSizes(BIG)!;
    const passes = [];
    for (let i = 0; i < 4; i++) passes.push(await allowances.admit(target(), BIG, sizes));
    expect(passes.map((p) => p?.verdict)).toEqual(['go', 'go', 'go', 'hold']);
    expect(passes[3]).toEqual({ verdict: 'hold', reason: 'in_flight', waitMs: 1000 });
  });

  it('new limits start a new share: the old one’s unspent part is given back at once', async () => {
    const { allowances, givenBack } = setup();
    await allowances.admit(target(), BIG, batchSizes(BIG)!);
    const lower: EffectiveLimits = { rate: 200, windowMs: 1000, maxInFlight: null };
    expect(await allowances.admit(target(), lower, batchSizes(lower)!)).toEqual({ verdict: 'go', lease: null });
    expect(givenBack.map((g) => [g.tokens.length, g.slots.length])).toEqual([[63, 63]]);
  });

  it('Redis not answering: the delivery is sent (fail open), as a single call would', async () => {
    const { allowances } = setup({ fail: true });
    expect(await allowances.admit(target(), BIG, batchSizes(BIG)!)).toEqual({ verdict: 'go', lease: null });
  });

  it('memory: a share is forgotten once nothing in it can be spent and nothing is in flight', async () => {
    const { allowances, tick } = setup();
    const sizes = batchSizes(BIG)!;
    for (const id of ['tg_a', 'tg_b', 'tg_c']) {
      const pass = (await allowances.admit(target(id), BIG, sizes)) as { lease: string };
      allowances.release(id, pass.lease);
    }
    expect(allowances.size).toBe(3);
    tick(ALLOWANCE_VALID_MS);
    await allowances.sweep();
    expect(allowances.size).toBe(0);
  });
});
