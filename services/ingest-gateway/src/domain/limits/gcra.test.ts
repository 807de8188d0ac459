import { gcraAdmit, RATE_WINDOW_MS, retryAfterSeconds } from './gcra';
import type { RateDecision, RateState } from './gcra';

/** Runs requests at the given times (ms) through one bucket; returns each decision. */
function run(limit: number, times: number[]): RateDecision[] {
  let state: RateState | null = null;
  return times.map((t) => {
    const d = gcraAdmit(state, t, limit);
    if (d.admitted) state = d.state;
    return d;
  });
}
const admitted = (limit: number, times: number[]): boolean[] => run(limit, times).map((d) => d.admitted);

/** A seeded generator, so a failing sequence can be replayed. */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe('per-endpoint rate limit "requests per minute" (GCRA)', () => {
  it('1/min: a request 61 s after the only other one is admitted (the sliding-window estimate refused it)', () => {
    expect(admitted(1, [0, 61_000])).toEqual([true, true]);
  });

  it('1/min: a request 60 s after the only other one is admitted; 59.999 s after, it is refused', () => {
    expect(admitted(1, [0, 60_000])).toEqual([true, true]);
    expect(admitted(1, [0, 59_999])).toEqual([true, false]);
  });

  it.each([1, 2, 7, 600, 100_000])('a limit of %i admits that many requests at once, and refuses one more', (limit) => {
    const decisions = admitted(
      limit,
      Array.from({ length: limit + 1 }, () => 1_700_000_000_000),
    );
    expect(decisions.filter(Boolean)).toHaveLength(limit);
    expect(decisions.at(-1)).toBe(false);
  });

  it.each([1, 3, 10, 60])(
    '%i/min admits every sequence with at most that many requests in any 60 s (500 random sequences)',
    (limit) => {
      const random = rng(limit);
      for (let n = 0; n < 500; n++) {
        // grow a sequence, keeping only requests that keep every 60 s window at or under the limit
        const times: number[] = [];
        let t = 0;
        for (let i = 0; i < 40; i++) {
          t += Math.floor(random() * 40_000);
          if (times.filter((x) => x > t - RATE_WINDOW_MS).length < limit) times.push(t);
        }
        expect(admitted(limit, times).every(Boolean)).toBe(true);
      }
    },
  );

  it.each([1, 2, 7, 600])(
    '%i/min never asks a sender to wait more than 60 s, and the wait is exact: admitted after it, refused 1 ms before',
    (limit) => {
      const random = rng(limit + 1);
      let state: RateState | null = null;
      let t = 0;
      let refusals = 0;
      for (let i = 0; i < 3000; i++) {
        t += Math.floor(random() * (RATE_WINDOW_MS / limit) * 1.5);
        const d = gcraAdmit(state, t, limit);
        if (d.admitted) {
          state = d.state;
          continue;
        }
        refusals += 1;
        expect(d.waitMs).toBeGreaterThan(0);
        expect(d.waitMs).toBeLessThanOrEqual(RATE_WINDOW_MS);
        expect(retryAfterSeconds(d.waitMs)).toBeLessThanOrEqual(60);
        expect(gcraAdmit(state, t + d.waitMs, limit).admitted).toBe(true);
        expect(gcraAdmit(state, t + d.waitMs - 1, limit).admitted).toBe(false);
      }
      expect(refusals).toBeGreaterThan(100);
    },
  );

  it('Retry-After is the wait in whole seconds, rounded up, at least 1', () => {
    expect([1, 999, 1000, 1001, 60_000].map(retryAfterSeconds)).toEqual([1, 1, 1, 2, 60]);
    expect(run(1, [0, 30_000])[1]).toEqual({ admitted: false, waitMs: 30_000 });
  });

  it('a refused request is not counted: retrying early does not push the wait out', () => {
    expect(admitted(1, [0, 10_000, 20_000, 30_000, 60_000])).toEqual([true, false, false, false, true]);
  });

  it('over a long run the admitted rate is the limit: 10/min under constant pressure for 10 minutes admits 10 + 99', () => {
    const times = Array.from({ length: 6000 }, (_, i) => i * 100); // one request every 100 ms
    expect(admitted(10, times).filter(Boolean)).toHaveLength(10 + 99);
  });

  it('a full burst followed by steady pressure: a 60 s window holds at most 2N − 1 (5/min: 9)', () => {
    const times = Array.from({ length: 60_000 }, (_, i) => i); // one request every ms for a minute
    expect(admitted(5, times).filter(Boolean)).toHaveLength(2 * 5 - 1);
  });

  it('a clock behind the last decision (another gateway) drains nothing and never overfills', () => {
    expect(admitted(2, [10_000, 5_000, 9_000])).toEqual([true, true, false]);
  });
});
