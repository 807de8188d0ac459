import { CATALOG, createDefaultRegistry } from './catalog';
import { BLOCK_CHAT_RETRY_SCHEDULE_MS } from './kinds/block_chat';
import { EMBED_CHAT_RETRY_SCHEDULE_MS } from './kinds/embed_chat';
import { WEBHOOK_RETRY_SCHEDULE_MS, webhookInfo } from './kinds/webhook';
import { validateRetrySchedule } from './describe/target-fields';
import { retryScheduleOf } from './schedule';

describe('retry schedules', () => {
  it('webhook default: immediate, then 5 s, 30 s, 2 m, 10 m, 30 m, 1 h, 3 h, 6 h, 12 h (ten attempts)', () => {
    const s = 1_000;
    expect(WEBHOOK_RETRY_SCHEDULE_MS).toEqual([
      5 * s,
      30 * s,
      120 * s,
      600 * s,
      1_800 * s,
      3_600 * s,
      10_800 * s,
      21_600 * s,
      43_200 * s,
    ]);
  });

  it.each([
    ['webhook', WEBHOOK_RETRY_SCHEDULE_MS],
    ['embed_chat', EMBED_CHAT_RETRY_SCHEDULE_MS],
    ['block_chat', BLOCK_CHAT_RETRY_SCHEDULE_MS],
  ] as const)('%s declares its default, in the catalog and on the built kind alike', (kind, expected) => {
    expect(CATALOG.entries.find((e) => e.kind === kind)?.defaultRetryScheduleMs).toBe(expected);
    expect(
      createDefaultRegistry({ secrets: { encrypt: (s) => s, decrypt: (s) => s } }).get(kind)?.defaultRetryScheduleMs,
    ).toBe(expected);
  });

  it("a target's own schedule wins over its kind's; null means the default", () => {
    expect(retryScheduleOf({ retry_schedule_ms: [200, 500] }, webhookInfo)).toEqual([200, 500]);
    expect(retryScheduleOf({ retry_schedule_ms: null }, webhookInfo)).toBe(WEBHOOK_RETRY_SCHEDULE_MS);
    expect(retryScheduleOf({}, webhookInfo)).toBe(WEBHOOK_RETRY_SCHEDULE_MS);
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
