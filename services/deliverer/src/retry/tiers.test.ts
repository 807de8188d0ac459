import { CATALOG, createCatalog, createEmbedChatKind, WEBHOOK_RETRY_SCHEDULE_MS } from '@relay/targets';
import type { CatalogEntry } from '@relay/targets';
import { delivererConfigSpec } from '../delivery/config';
import { defaultRetryTiers, HOLD_TIERS_MS, holdTier, jitteredTiers, parseTiers, pickTier } from './tiers';

const TIERS = [200, 500, 1_000, 1_100, 1_200, 5_000];

describe('pickTier: a delay is served by the smallest tier at or above it, jittered within +jitter%', () => {
  it.each([
    ['0 ms → no tier: straight back to the work queue', 0, 0.5, 0],
    ['150 ms → 200 ms tier (never earlier than scheduled)', 150, 0.5, 200],
    ['200 ms → 200 ms tier exactly', 200, 0.99, 200],
    ['1 s with random 0 → 1 s', 1_000, 0, 1_000],
    ['1 s with random 0.5 → 1.1 s (jitter window [1 s, 1.2 s])', 1_000, 0.5, 1_100],
    ['1 s with random 0.99 → 1.2 s', 1_000, 0.99, 1_200],
    ['2 s → 5 s (no tier inside the window: the next one up)', 2_000, 0.5, 5_000],
    ['beyond every tier → the largest tier', 60_000, 0.5, 5_000],
  ])('%s', (_name, delay, random, expected) => {
    expect(pickTier(delay, TIERS, 20, () => random)).toBe(expected);
  });

  it('jitter 0 always picks the smallest tier at or above', () => {
    expect(pickTier(1_000, TIERS, 0, () => 0.99)).toBe(1_000);
  });
});

describe('tier sets', () => {
  it('jittered defaults put d, d × 1.1 and d × 1.2 beside every scheduled delay', () => {
    expect(jitteredTiers([1_000, 5_000])).toEqual([1_000, 1_100, 1_200, 5_000, 5_500, 6_000]);
  });

  it('the webhook default covers every delay of the default schedule and the 1 h Retry-After cap', () => {
    const tiers = defaultRetryTiers('webhook');
    for (const d of WEBHOOK_RETRY_SCHEDULE_MS) expect(tiers).toContain(d);
    expect(tiers).toContain(3_600_000);
    for (const d of HOLD_TIERS_MS) expect(tiers).toContain(d);
    expect(tiers).toHaveLength(35);
  });

  it('the chat default covers the fast schedule, the 60 s Retry-After cap and the hold tiers', () => {
    expect(defaultRetryTiers('chat')).toEqual([
      100, 200, 500, 1_000, 1_100, 1_200, 2_000, 2_200, 2_400, 5_000, 5_500, 6_000, 10_000, 15_000, 16_500, 18_000,
      20_000, 30_000, 33_000, 36_000, 60_000,
    ]);
  });

  it('a held delivery waits in the largest tier within what is left of its wait (at most HOLD_MAX_MS), else the smallest', () => {
    const tiers = defaultRetryTiers('webhook');
    const waits = [0, 1, 150, 999, 1_000, 1_001, 4_000, 59_000, 61_000, 3_600_000];
    expect(waits.map((w) => holdTier(w, tiers))).toEqual([
      100, 100, 100, 500, 1_000, 1_000, 2_000, 36_000, 60_000, 60_000,
    ]);
    // an operator's tiers without short ones: the smallest there is
    expect(holdTier(300, [60_000, 300_000])).toBe(60_000);
  });

  it('a test-only kind registered in the catalog with its own schedule gets tiers for every delay of it', () => {
    // one line, as docs/adding-a-target-kind.md says; nothing in the deliverer is edited
    const description = { label: 'Test pager', fields: {} };
    const pager: CatalogEntry = {
      kind: 'test_pager',
      channel: 'chat',
      defaultRetryScheduleMs: [7_000, 90_000],
      description,
      resendable: true,
      create: (deps) => ({
        ...createEmbedChatKind(deps),
        kind: 'test_pager',
        defaultRetryScheduleMs: [7_000, 90_000],
        description,
      }),
    };
    const catalog = createCatalog([...CATALOG.entries, pager]);
    const tiers = defaultRetryTiers('chat', catalog);
    expect(tiers).toEqual(
      [...defaultRetryTiers('chat'), 7_000, 7_700, 8_400, 90_000, 99_000, 108_000].sort((a, b) => a - b),
    );
    for (const d of pager.defaultRetryScheduleMs) expect(pickTier(d, tiers, 20, () => 0)).toBe(d);
    expect(defaultRetryTiers('webhook', catalog)).toEqual(defaultRetryTiers('webhook'));
    expect(delivererConfigSpec({ healthPort: 0, channel: 'chat', catalog }).retryTiersMs.default).toEqual(
      tiers.map(String),
    );
  });

  it('parseTiers sorts, dedupes and reports every bad entry at once', () => {
    expect(parseTiers(['500', '200', '500'])).toEqual({ tiers: [200, 500], problems: [] });
    expect(parseTiers(['0', 'x', '-5', '100']).problems).toHaveLength(3);
    expect(parseTiers([]).problems).toEqual(['RETRY_TIERS_MS: at least one tier is needed']);
  });
});
