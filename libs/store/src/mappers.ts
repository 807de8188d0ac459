import { deliveryOrderOf } from '@relay/contracts';
import type { AccountRecord, ActivityRecord, DeliveryRecord, EndpointRecord, TargetRecord } from './records';

/* Map raw documents (`_id`) to records (`id`). Documents come from `.lean()` queries. */
type Doc = Record<string, any>;

export function toEndpoint(d: Doc): EndpointRecord {
  const { _id, ...rest } = d;
  return { ...(rest as Omit<EndpointRecord, 'id'>), id: _id as string };
}

export function toTarget(d: Doc): TargetRecord {
  const { _id, ...rest } = d;
  return { ...(rest as Omit<TargetRecord, 'id'>), id: _id as string };
}

export function toAccount(d: Doc): AccountRecord {
  const { _id, ...rest } = d;
  return { ...(rest as Omit<AccountRecord, 'id'>), id: _id as string };
}

export function toActivity(d: Doc): ActivityRecord {
  const { _id, ixg: _ixg, rev: _rev, deliveries, ...rest } = d; // ixg, rev: fields of earlier layouts
  // deliveries and their attempts are stored keyed by id / attempt number (see activity-writer)
  const list = Object.values((deliveries ?? {}) as Record<string, Doc>)
    .map(
      (dl) =>
        ({
          ...dl,
          attempts: Object.values((dl.attempts ?? {}) as Record<string, Doc>).sort((a, b) => a.attempt - b.attempt),
        }) as DeliveryRecord,
    )
    // per target, its deliveries in the order they were made: the first, then each resend
    .sort(
      (a, b) =>
        a.target_id.localeCompare(b.target_id) ||
        deliveryOrderOf(a.delivery_id).localeCompare(deliveryOrderOf(b.delivery_id)),
    );
  // rows written before last_error/aggregate existed read as null; a row with no request record
  // yet has none of the request's fields
  const row = rest as Omit<ActivityRecord, 'id' | 'deliveries'>;
  return {
    ...row,
    method: row.method ?? null,
    outcome: row.outcome ?? null,
    reason: row.reason ?? null,
    target_count: row.target_count ?? 0,
    test: row.test ?? false,
    source_ip: row.source_ip ?? null,
    last_error: row.last_error ?? null,
    aggregate: row.aggregate ?? null,
    id: _id as string,
    deliveries: list,
  };
}
