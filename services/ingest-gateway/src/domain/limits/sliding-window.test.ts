import { admitsOneMore, RATE_WINDOW_MS, rateRetryAfterSeconds, rateWindow } from './sliding-window';

describe('per-endpoint rate limit: sliding window over the last 60 s', () => {
  it('names the minute and the time into it', () => {
    expect(rateWindow(5 * RATE_WINDOW_MS + 1234)).toEqual({ minute: 5, elapsedMs: 1234 });
  });

  it.each([
    // prev, curr, elapsed ms, limit, admitted
    ['an empty window admits', 0, 0, 0, 1, true],
    ['the limit-th request of a minute is admitted', 0, 4, 10_000, 5, true],
    ['one more than the limit is not', 0, 5, 10_000, 5, false],
    ['at the start of a minute the previous minute weighs fully', 5, 0, 0, 5, false],
    ['half way through, half of the previous minute still counts', 4, 2, 30_000, 5, true],
    ['half way through, 6 × ½ + 2 + 1 = 6 > 5', 6, 2, 30_000, 5, false],
    ['54 s in, a previous minute of 10 weighs 1', 10, 0, 54_000, 2, true],
  ])('%s', (_name, prev, curr, elapsed, limit, admitted) => {
    expect(admitsOneMore(prev, curr, elapsed, limit)).toBe(admitted);
  });

  it('never admits twice the limit around a minute boundary (unlike a fixed window)', () => {
    const limit = 10;
    let prev = 0;
    let curr = 0;
    let admitted = 0;
    // 10 at 59.9 s of minute 0, then a burst right after the boundary
    for (let i = 0; i < 10; i++) if (admitsOneMore(prev, curr, 59_900, limit)) (curr++, admitted++);
    [prev, curr] = [curr, 0];
    for (let i = 0; i < 10; i++) if (admitsOneMore(prev, curr, 100, limit)) (curr++, admitted++);
    expect(admitted).toBe(10);
  });

  describe('Retry-After: whole seconds until one more request fits', () => {
    it('waits for the next minute when this minute alone is full (and for the previous weight to fade)', () => {
      // 5 of 5 used 10 s into the minute: 50 s to the boundary, then 5 × (1 − u/60) + 1 ≤ 5 → u ≥ 12 s
      expect(rateRetryAfterSeconds(0, 5, 10_000, 5)).toBe(62);
    });

    it('waits only until the previous minute has faded enough when this one has room', () => {
      // prev 6, curr 2, limit 5, 30 s in: 6 × (30 − t)/60 ≤ 2 → t ≥ 10 s
      expect(rateRetryAfterSeconds(6, 2, 30_000, 5)).toBe(10);
    });

    it('is at least 1 second', () => {
      expect(rateRetryAfterSeconds(6, 2, 39_999, 5)).toBe(1);
    });

    it('agrees with admitsOneMore: after the hint one more fits, a second earlier it did not', () => {
      for (const [prev, curr, elapsed, limit] of [[6, 2, 30_000, 5], [3, 3, 1_000, 3], [0, 7, 59_000, 7], [40, 1, 5_000, 20]] as const) {
        const t = rateRetryAfterSeconds(prev, curr, elapsed, limit) * 1000;
        const at = (ms: number): boolean => {
          const later = elapsed + ms;
          if (later < RATE_WINDOW_MS) return admitsOneMore(prev, curr, later, limit);
          return admitsOneMore(curr, 0, later - RATE_WINDOW_MS, limit);
        };
        expect(at(t)).toBe(true);
        expect(at(t - 1000)).toBe(false);
      }
    });
  });
});
