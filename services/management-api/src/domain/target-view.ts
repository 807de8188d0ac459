import type { TargetRecord } from '@relay/store';
import type { TargetRegistry } from '@relay/targets';

/**
 * A target as the API shows it: its config through its kind's public view (no secret values);
 * `flagged` as the deliverers set it (docs/delivery.md "Flagged targets"); `retry_schedule_ms`
 * null meaning the kind's default, shown beside it; `limits` likewise; the breaker's state.
 */
export function targetView(t: TargetRecord, registry: TargetRegistry): Record<string, unknown> {
  const kind = registry.get(t.kind);
  return {
    ...t,
    config: kind ? kind.publicConfig(t.config) : {},
    flagged: t.flagged ?? null,
    retry_schedule_ms: t.retry_schedule_ms ?? null,
    routing: t.routing ?? null,
    ordering: t.ordering ?? null,
    default_retry_schedule_ms: kind?.defaultRetryScheduleMs ?? null,
    limits: t.limits ?? null,
    default_limits: kind?.defaultLimits ?? null,
    breaker: t.breaker ?? null,
    // the state its last transition stored (docs/delivery-limits.md); never set: closed since created
    breaker_state: t.breaker_state
      ? { state: t.breaker_state.state, since: t.breaker_state.since, reason: t.breaker_state.reason }
      : { state: 'closed', since: t.created_at, reason: '' },
  };
}
