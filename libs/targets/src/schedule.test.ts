import { BLOCK_CHAT_RETRY_SCHEDULE_MS, EMBED_CHAT_RETRY_SCHEDULE_MS } from './index';
import { defaultRetrySchedule, retryScheduleOf, validateRetrySchedule, WEBHOOK_RETRY_SCHEDULE_MS } from './schedule';

describe('retry schedules', () => {
  it('webhook default: immediate, then 5 s, 30 s, 2 m, 10 m, 30 m, 1 h, 3 h, 6 h, 12 h (ten attempts)', () => {
    const s = 1_000;
    expect(WEBHOOK_RETRY_SCHEDULE_MS).toEqual([5 * s, 30 * s, 120 * s, 600 * s, 1_800 * s, 3_600 * s, 10_800 * s, 21_600 * s, 43_200 * s]);
  });

  it.each([
    ['webhook', 'webhook', WEBHOOK_RETRY_SCHEDULE_MS],
    ['embed_chat', 'chat', EMBED_CHAT_RETRY_SCHEDULE_MS],
    ['block_chat', 'chat', BLOCK_CHAT_RETRY_SCHEDULE_MS],
    ['a new kind on the chat channel', 'chat', EMBED_CHAT_RETRY_SCHEDULE_MS],
  ] as const)('default of %s', (kind, channel, expected) => {
    expect(defaultRetrySchedule(kind, channel)).toBe(expected);
  });

  it("a target's own schedule wins over its kind's; null means the default", () => {
    expect(retryScheduleOf({ kind: 'webhook', retry_schedule_ms: [200, 500] }, 'webhook')).toEqual([200, 500]);
    expect(retryScheduleOf({ kind: 'webhook', retry_schedule_ms: null }, 'webhook')).toBe(WEBHOOK_RETRY_SCHEDULE_MS);
    expect(retryScheduleOf({ kind: 'webhook' }, 'webhook')).toBe(WEBHOOK_RETRY_SCHEDULE_MS);
  });

  it.each([
    ['null (the default)', null, true],
    ['[] (no retries)', [], true],
    ['[0, 1000, 86400000]', [0, 1_000, 86_400_000], true],
    ['a string', '1000', false],
    ['a negative delay', [-1], false],
    ['a fraction', [1.5], false],
    ['more than 24 h', [86_400_001], false],
    ['21 retries', new Array(21).fill(1_000), false],
  ])('validateRetrySchedule: %s', (_n, input, ok) => {
    expect(validateRetrySchedule(input).ok).toBe(ok);
  });
});
