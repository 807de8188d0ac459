import { timedId } from '@relay/contracts';
import type { ActivityAttemptV1, ActivityRequestV1 } from '@relay/contracts';
import { minuteStart } from './flood';
import type { FoldGroup } from './flood';
import { mergeAttempts, nextAttemptMs } from '../storage/internal';
import type { ActivityDoc } from '@relay/store';
import type { IndexChange, IndexEntry, StoredAttempt } from '../storage/internal';

/**
 * A stored row as the writer sees it. A row that only attempts have reached so far (its
 * request message is late or lost) has no outcome yet; its `received_at` is then the first
 * attempt's time until the request arrives and sets the real one.
 */
export type RowDoc = ActivityDoc;

export function requestFields(m: ActivityRequestV1) {
  return {
    account_id: m.account_id,
    endpoint_id: m.endpoint_id,
    received_at: new Date(m.received_at),
    method: m.method,
    source_ip: m.source_ip,
    outcome: m.outcome,
    reason: m.reason,
    target_count: m.target_count,
    test: m.test,
    // targets the event's payload was not routed to (docs/routing.md); kept only when there are some
    ...(m.not_routed && m.not_routed.length > 0 ? { not_routed: m.not_routed } : {}),
    ...(m.alert ? { alert: m.alert } : {}),
    ...(m.quarantine ? { quarantine: m.quarantine } : {}),
    ...(m.rerun_of ? { rerun_of: m.rerun_of } : {}),
    ...(m.contract_violation ? { contract_violation: m.contract_violation } : {}),
  };
}

/** An attempt message as the row keeps it. */
export function storedAttempt(a: ActivityAttemptV1): StoredAttempt {
  return {
    delivery_id: a.delivery_id,
    target_id: a.target_id,
    target_kind: a.target_kind,
    attempt: a.attempt,
    attempted_at: new Date(a.attempted_at),
    state: a.state,
    status_code: a.status_code,
    duration_ms: a.duration_ms,
    error: a.error,
    next_attempt_at: a.next_attempt_at ? new Date(a.next_attempt_at) : null,
    ...(a.response ? { response: a.response } : {}),
    ...(a.transform ? { transform: a.transform } : {}),
    ...(a.resends ? { resends: a.resends } : {}),
    ...(a.ordering ? { ordering: a.ordering } : {}),
  };
}

/**
 * The row after `request` and `attempts` are applied to `row` (null: no row yet). Pure and
 * idempotent: attempts are keyed by delivery id and attempt number, so a redelivered message,
 * or messages in any order, give the same row.
 */
export function applyMessages(
  eventId: string,
  row: RowDoc | null,
  request: ActivityRequestV1 | null,
  attempts: ActivityAttemptV1[],
): RowDoc {
  const first = attempts[0];
  const base: RowDoc = row
    ? { ...row }
    : ({
        _id: eventId,
        account_id: request?.account_id ?? first!.account_id,
        endpoint_id: request?.endpoint_id ?? first!.endpoint_id,
        received_at: new Date(request?.received_at ?? first!.attempted_at),
        deliveries: {},
        status: 'pending',
        last_error: null,
        aggregate: null,
      } as unknown as RowDoc);
  if (request) Object.assign(base, requestFields(request));
  return mergeAttempts(base, attempts.map(storedAttempt));
}

/** What the list shows of a row, kept in its index entry (storage/entries.ts). */
export function entryOf(row: RowDoc): IndexEntry {
  return {
    event_id: row._id,
    received_ms: row.received_at.getTime(),
    endpoint_id: row.endpoint_id,
    method: row.method ?? null,
    source_ip: row.aggregate ? null : (row.source_ip ?? null),
    outcome: row.outcome ?? null,
    reason: row.reason ?? null,
    status: row.status,
    last_error: row.last_error ?? null,
    target_count: row.target_count ?? 0,
    test: row.test === true,
    aggregated: row.aggregate != null,
    alert: row.alert != null,
    retry_ms: nextAttemptMs(row.deliveries),
  };
}

export function changeOf(row: RowDoc): IndexChange {
  return {
    event_id: row._id,
    status: row.status,
    last_error: row.last_error ?? null,
    retry_ms: nextAttemptMs(row.deliveries),
  };
}

/**
 * The aggregated row a flush's folds count into (`agg_` + minute + digest): the upsert that
 * creates it or raises its count, first and last seen, and the row as first written (its list
 * entry). Aggregated rows have no source IP and no deliveries.
 */
export function aggregation(f: FoldGroup): { id: string; update: Record<string, unknown>; row: RowDoc } {
  const minute = minuteStart(f.request.received_at);
  const id = timedId('agg', minute.getTime(), f.digest);
  const { received_at: _r, source_ip: _ip, ...fields } = requestFields(f.request);
  const created = {
    ...fields,
    received_at: minute,
    target_count: 0,
    status: 'errors' as const,
    last_error: null,
    deliveries: {},
  };
  return {
    id,
    update: {
      $setOnInsert: created,
      $inc: { 'aggregate.count': f.count },
      $min: { 'aggregate.first_seen': f.first_seen },
      $max: { 'aggregate.last_seen': f.last_seen },
    },
    row: {
      _id: id,
      ...created,
      source_ip: null,
      aggregate: { count: f.count, first_seen: f.first_seen, last_seen: f.last_seen },
    } as unknown as RowDoc,
  };
}
