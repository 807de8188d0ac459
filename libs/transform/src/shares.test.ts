import { ThreadShares } from './shares';

/* Each account's share of the sandbox thread: a bucket of sandbox ms, on a clock the test moves. */

const SHARE = { fraction: 0.25, burstMs: 250 };

function shares(maxTenants?: number): { shares: ThreadShares; advance(ms: number): void } {
  let now = 1_000_000;
  return { shares: new ThreadShares(SHARE, () => now, maxTenants), advance: (ms) => void (now += ms) };
}

describe('an account’s share of the sandbox thread', () => {
  test('an account not seen lately has the whole burst', () => {
    const { shares: s } = shares();
    expect(s.left('acc_a')).toBe(250);
    expect(s.refuses('acc_a')).toBe(false);
    expect(s.expectedMs('acc_a')).toBeUndefined();
  });

  test('a call’s time is taken from the share when it ends, and the share fills at a quarter of the time passing, up to the burst', () => {
    const { shares: s, advance } = shares();
    s.charge('acc_a', 200, false);
    expect(s.left('acc_a')).toBe(50);
    advance(400);
    expect(s.left('acc_a')).toBe(150);
    advance(10_000);
    expect(s.left('acc_a')).toBe(250);
  });

  test('one call may overdraw the share; the account is refused only when the call that overdrew it ran out of its budget', () => {
    const { shares: s } = shares();
    s.charge('acc_loop', 200, true);
    expect(s.refuses('acc_loop')).toBe(false);
    s.charge('acc_loop', 200, true);
    expect(s.left('acc_loop')).toBe(-150);
    expect(s.refuses('acc_loop')).toBe(true);

    s.charge('acc_heavy', 200, false);
    s.charge('acc_heavy', 200, false);
    expect(s.left('acc_heavy')).toBe(-150);
    expect(s.refuses('acc_heavy')).toBe(false);
  });

  test('a refused account is told when its calls run again, and runs again once its share is above zero', () => {
    const { shares: s, advance } = shares();
    s.charge('acc_loop', 250, true);
    s.charge('acc_loop', 200, true);
    expect(s.backInMs('acc_loop')).toBe(800);
    advance(799);
    expect(s.refuses('acc_loop')).toBe(true);
    advance(2);
    expect(s.refuses('acc_loop')).toBe(false);
  });

  test('an account that runs its budget out again and again gets a quarter of the thread over time', () => {
    const { shares: s, advance } = shares();
    let ran = 0;
    // a call offered every millisecond for a minute; each that is let run takes the whole 200 ms budget
    for (let t = 0; t < 60_000;) {
      if (s.refuses('acc_loop')) {
        advance(1);
        t += 1;
        continue;
      }
      s.charge('acc_loop', 200, true);
      ran += 200;
      advance(200);
      t += 200;
    }
    expect(ran / 60_000).toBeGreaterThan(0.24);
    expect(ran / 60_000).toBeLessThan(0.26);
  });

  test('a watchdog’s stop, far past the budget, keeps the account refused until the share paid it back', () => {
    const { shares: s, advance } = shares();
    s.charge('acc_bomb', 2200, true);
    expect(s.backInMs('acc_bomb')).toBe(7800);
    advance(7800);
    expect(s.refuses('acc_bomb')).toBe(true);
    advance(1);
    expect(s.refuses('acc_bomb')).toBe(false);
  });

  test('debt is bounded: an account that used the thread alone for long is behind others for at most ten seconds’ share', () => {
    const { shares: s } = shares();
    for (let i = 0; i < 1000; i++) s.charge('acc_heavy', 100, false);
    expect(s.left('acc_heavy')).toBe(-2500);
  });

  test('what the next call is expected to take: a longer call counts at once, shorter ones bring it down by halves', () => {
    const { shares: s } = shares();
    s.charge('acc_a', 0.1, false);
    expect(s.expectedMs('acc_a')).toBe(0.1);
    s.charge('acc_a', 200, true);
    expect(s.expectedMs('acc_a')).toBe(200);
    s.charge('acc_a', 0.1, false);
    expect(s.expectedMs('acc_a')).toBeCloseTo(100.05);
  });

  test('an account idle for ten seconds with its share full again is forgotten when another is charged', () => {
    const { shares: s, advance } = shares();
    s.charge('acc_idle', 1, false);
    s.charge('acc_busy', 1, false);
    advance(9_999);
    s.charge('acc_busy', 1, false);
    expect(s.size).toBe(2);
    advance(1);
    s.charge('acc_busy', 1, false);
    expect(s.size).toBe(1);
    expect(s.expectedMs('acc_idle')).toBeUndefined();
  });

  test('an account still paying its share back is kept while idle: it does not start afresh', () => {
    const { shares: s, advance } = shares();
    for (let i = 0; i < 30; i++) s.charge('acc_heavy', 100, false);
    advance(10_000);
    s.charge('acc_other', 1, false);
    expect(s.left('acc_heavy')).toBe(0);
    expect(s.expectedMs('acc_heavy')).toBe(100);
  });

  test('at most maxTenants accounts are kept: past it the one charged least recently is forgotten', () => {
    const { shares: s } = shares(3);
    for (const t of ['acc_1', 'acc_2', 'acc_3', 'acc_4', 'acc_5']) s.charge(t, 1, false);
    expect(s.size).toBe(3);
    expect(['acc_1', 'acc_2', 'acc_3', 'acc_4', 'acc_5'].map((t) => s.expectedMs(t) !== undefined)).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });
});
