import { quotaMonth } from '@relay/contracts';
import type { PlanLimits } from '@relay/store';

/** A calendar month in UTC: the period the monthly accepted-event quota counts. */
export interface UsagePeriod {
  /** `YYYY-MM`, as in the Redis counter key */
  month: string;
  start: Date;
  /** exclusive: the first instant of the next month, when the count starts again */
  end: Date;
}

export function usagePeriod(now: Date): UsagePeriod {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  return { month: quotaMonth(now), start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) };
}

/**
 * The body of `GET /billing/usage` (spec "Other interfaces"; its fields are not shown there,
 * see docs/management-api.md). The counter may pass the limit by the few requests in flight
 * when the quota ran out, so `remaining` never goes below 0.
 */
export function usageView(
  accountId: string,
  plan: PlanLimits,
  period: UsagePeriod,
  acceptedEvents: number,
): Record<string, unknown> {
  const limit = plan.monthly_accepted_events;
  return {
    account_id: accountId,
    plan: { name: plan.name, monthly_accepted_events: limit, payload_limit_bytes: plan.payload_limit_bytes },
    period: { month: period.month, start: period.start.toISOString(), end: period.end.toISOString() },
    accepted_events: acceptedEvents,
    limit,
    remaining: Math.max(0, limit - acceptedEvents),
  };
}

/**
 * The body of `GET /v1/billing/usage/daily`: the period's accepted events per UTC day and per
 * endpoint, from the gateway's counters (never the activity log). `days` runs from the first of
 * the month to today; each endpoint's `days` is aligned with it. `unattributed` is what the
 * monthly counter holds beyond the per-day counts: events a gateway counted per process while
 * Redis was unreachable, added back to the month later without their day.
 */
export function dailyUsageView(
  accountId: string,
  plan: PlanLimits,
  period: UsagePeriod,
  now: Date,
  acceptedEvents: number,
  counts: Array<{ endpoint_id: string; day: number; count: number }>,
  names: Map<string, string>,
): Record<string, unknown> {
  const today = Math.min(now < period.end ? now.getUTCDate() : 31, new Date(period.end.getTime() - 1).getUTCDate());
  const dates = Array.from({ length: today }, (_, i) =>
    new Date(period.start.getTime() + i * 86_400_000).toISOString().slice(0, 10),
  );
  const perDay = new Array<number>(today).fill(0);
  const perEndpoint = new Map<string, number[]>();
  for (const c of counts) {
    if (c.day > today) continue;
    perDay[c.day - 1]! += c.count;
    const row = perEndpoint.get(c.endpoint_id) ?? new Array<number>(today).fill(0);
    row[c.day - 1]! += c.count;
    perEndpoint.set(c.endpoint_id, row);
  }
  const counted = perDay.reduce((a, b) => a + b, 0);
  const endpoints = [...perEndpoint.entries()]
    .map(([id, days]) => ({
      endpoint_id: id,
      name: names.get(id) ?? null,
      accepted_events: days.reduce((a, b) => a + b, 0),
      days,
    }))
    .sort((a, b) => b.accepted_events - a.accepted_events || a.endpoint_id.localeCompare(b.endpoint_id));
  return {
    account_id: accountId,
    period: { month: period.month, start: period.start.toISOString(), end: period.end.toISOString() },
    limit: plan.monthly_accepted_events,
    accepted_events: acceptedEvents,
    days: dates.map((date, i) => ({ date, accepted_events: perDay[i]! })),
    endpoints,
    unattributed: Math.max(0, acceptedEvents - counted),
  };
}
