import type { AttemptResult } from '@relay/targets';
import { decideRetry } from './decide';
import type { RetryPolicy } from './decide';

const policy: RetryPolicy = { tiersMs: [200, 500, 1_000, 60_000], jitterPct: 0, retryAfterMaxMs: 60_000 };
const now = new Date('2030-01-01T00:00:00.000Z');
const at = (attempt: number, scheduleBase = 1) => ({ attempt, scheduleBase });
const retry = (retryAfterMs?: number): AttemptResult => ({
  result: 'retry',
  status: 503,
  error: 'HTTP 503',
  ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
});
const decide = (outcome: AttemptResult, pos = at(1), schedule: readonly number[] = [200, 500]) =>
  decideRetry(outcome, pos, schedule, policy, now, () => 0);

describe('decideRetry (docs/delivery.md "What happens after an attempt")', () => {
  it('2xx success → delivered', () => {
    expect(decide({ result: 'success', status: 200 })).toEqual({ state: 'delivered' });
  });

  it('permanent → failed at once, whatever is left of the schedule', () => {
    expect(decide({ result: 'permanent', status: 400, error: 'HTTP 400', flagTarget: false })).toEqual({
      state: 'failed',
      reason: 'permanent',
    });
  });

  it.each([
    ['attempt 1 waits the first delay', 1, 200],
    ['attempt 2 waits the second', 2, 500],
  ])('retryable with attempts left → retrying: %s', (_n, attempt, tier) => {
    expect(decide(retry(), at(attempt))).toEqual({
      state: 'retrying',
      delayMs: tier,
      tierMs: tier,
      nextAttemptAt: new Date(now.getTime() + tier),
    });
  });

  it('retryable after the last attempt (schedule.length + 1) → failed, exhausted', () => {
    expect(decide(retry(), at(3))).toEqual({ state: 'failed', reason: 'exhausted' });
  });

  it('an empty schedule means one attempt only', () => {
    expect(decide(retry(), at(1), [])).toEqual({ state: 'failed', reason: 'exhausted' });
  });

  it('a redriven delivery restarts the schedule at its base attempt', () => {
    expect(decide(retry(), at(4, 4))).toMatchObject({ state: 'retrying', tierMs: 200 });
    expect(decide(retry(), at(6, 4))).toEqual({ state: 'failed', reason: 'exhausted' });
  });

  it('Retry-After longer than the scheduled delay wins, rounded up to a tier', () => {
    expect(decide(retry(700))).toMatchObject({ state: 'retrying', delayMs: 700, tierMs: 1_000 });
  });

  it('Retry-After shorter than the scheduled delay does not shorten it', () => {
    expect(decide(retry(50))).toMatchObject({ delayMs: 200, tierMs: 200 });
  });

  it('Retry-After beyond RETRY_AFTER_MAX_MS is capped', () => {
    expect(decide(retry(3_600_000))).toMatchObject({ delayMs: 60_000, tierMs: 60_000 });
  });

  it('a Retry-After hint never adds attempts: the last attempt still fails', () => {
    expect(decide(retry(500), at(3))).toEqual({ state: 'failed', reason: 'exhausted' });
  });

  it('an ordered delivery is not retried past its bound (docs/ordering.md): exhausted instead', () => {
    const bound = (ms: number) => ({ ...at(1), deadline: now.getTime() + ms });
    expect(decide(retry(), bound(200))).toMatchObject({ state: 'retrying', tierMs: 200 });
    expect(decide(retry(), bound(199))).toEqual({ state: 'failed', reason: 'exhausted' });
    expect(decide(retry(700), bound(900))).toEqual({ state: 'failed', reason: 'exhausted' });
  });
});
