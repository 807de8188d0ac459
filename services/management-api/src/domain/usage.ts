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
export function usageView(accountId: string, plan: PlanLimits, period: UsagePeriod, acceptedEvents: number): Record<string, unknown> {
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
