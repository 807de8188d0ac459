import type { TargetRecord } from '@relay/store';
import type { TargetRegistry } from '@relay/targets';

/**
 * A target as the API shows it: its config through its kind's public view (no secret values);
 * `flagged` as the deliverers set it (docs/delivery.md "Flagged targets"); `retry_schedule_ms`
 * null meaning the kind's default, shown beside it.
 */
export function targetView(t: TargetRecord, registry: TargetRegistry): Record<string, unknown> {
  const kind = registry.get(t.kind);
  return {
    ...t,
    config: kind ? kind.publicConfig(t.config) : {},
    flagged: t.flagged ?? null,
    retry_schedule_ms: t.retry_schedule_ms ?? null,
    default_retry_schedule_ms: kind?.defaultRetryScheduleMs ?? null,
  };
}
