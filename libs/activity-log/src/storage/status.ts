import { deliveryOrderOf } from '@relay/contracts';
import type { DeliveryState } from '@relay/contracts';
import type { DeliveryAttemptRecord, DeliveryRecord, StatusGroup } from '@relay/store';

export interface AttemptLike {
  attempt: number;
  state: DeliveryState;
}

interface DeliveryLike {
  delivery_id?: string;
  target_id?: string;
}

export interface ActivityLike {
  outcome?: string | null;
  target_count?: number | null;
  deliveries?: Record<string, DeliveryLike & { attempts?: Record<string, AttemptLike> }> | null;
}

/**
 * The deliveries that count: per target, the latest one. A resend or bulk retry adds a
 * delivery under the same event id (`…_r<tag>`, @relay/contracts resendDeliveryId); it
 * replaces the earlier ones of its target in the row's status, which keeps them all.
 */
export function currentDeliveries<D extends DeliveryLike>(deliveries: Record<string, D> | null | undefined): D[] {
  const latest = new Map<string, { order: string; d: D }>();
  for (const [key, d] of Object.entries(deliveries ?? {})) {
    const target = d.target_id ?? key;
    const order = deliveryOrderOf(d.delivery_id ?? key);
    const seen = latest.get(target);
    if (!seen || order > seen.order) latest.set(target, { order, d });
  }
  return [...latest.values()].map((v) => v.d);
}

/** A delivery's state is the state reported by its highest attempt. */
export function deliveryState(attempts: Record<string, AttemptLike> | undefined): AttemptLike['state'] | null {
  let last: AttemptLike | null = null;
  for (const a of Object.values(attempts ?? {})) if (!last || a.attempt > last.attempt) last = a;
  return last ? last.state : null;
}

/**
 * Requests answered as designed that deliver nothing: a provider's endpoint handshake,
 * and a provider's retry of a delivery id already accepted. Neither is an error a person must act
 * on, and a provider retrying a slow answer would otherwise fill Errors with rows that "Retry
 * failed deliveries" can do nothing for.
 */
const ANSWERED_WITHOUT_DELIVERY: ReadonlySet<string> = new Set(['HANDSHAKE_ANSWERED', 'DUPLICATE']);

/**
 * The activity filter groups (spec "Activity record": Completed / Pending / Errors).
 * - Completed also holds a handshake answered and a provider's duplicate (ANSWERED_WITHOUT_DELIVERY).
 * - Errors: the request was rejected, or any delivery failed for good (a failed transformation too).
 * - Pending: accepted, and some delivery has not reported a final state yet (including a
 *   request whose row has not arrived while its attempts have).
 * - Completed: accepted and every target confirmed delivery, or its transformation dropped the
 *   event (or there were no targets).
 * Per target, only its latest delivery counts (a resend replaces a failed delivery).
 */
export function statusOf(doc: ActivityLike): StatusGroup {
  if (!doc.outcome) return 'pending';
  if (ANSWERED_WITHOUT_DELIVERY.has(doc.outcome)) return 'completed';
  if (doc.outcome !== 'ACCEPTED') return 'errors';
  const states = currentDeliveries(doc.deliveries).map((d) => deliveryState(d.attempts));
  if (states.includes('failed') || states.includes('transform_failed')) return 'errors';
  if (states.length < (doc.target_count ?? 0) || states.some((s) => s !== 'delivered' && s !== 'dropped'))
    return 'pending';
  return 'completed';
}

interface ErrorLike extends DeliveryLike {
  attempts?: Record<string, { error: string | null; attempted_at: Date }>;
}

/**
 * The error of the most recent failed attempt of any current delivery (what the error-text
 * filter reads); a delivery a resend replaced no longer speaks for the row.
 */
export function lastError(deliveries: Record<string, ErrorLike> | undefined): string | null {
  let latest: { error: string | null; attempted_at: Date } | null = null;
  for (const d of currentDeliveries(deliveries)) {
    for (const a of Object.values(d.attempts ?? {}))
      if (a.error && (!latest || a.attempted_at > latest.attempted_at)) latest = a;
  }
  return latest?.error ?? null;
}

interface RetryLike extends DeliveryLike {
  attempts?: Record<string, AttemptLike & { next_attempt_at?: Date | null }>;
}

/**
 * When the soonest current delivery that failed and waits for its next attempt is tried again
 * (ms), or null when none waits: what lets the list tell "retrying" from "never tried" without
 * opening the row.
 */
export function nextAttemptMs(deliveries: Record<string, RetryLike> | null | undefined): number | null {
  let soonest: number | null = null;
  for (const d of currentDeliveries(deliveries)) {
    let last: (AttemptLike & { next_attempt_at?: Date | null }) | null = null;
    for (const a of Object.values(d.attempts ?? {})) if (!last || a.attempt > last.attempt) last = a;
    if (last?.state !== 'retrying' || !last.next_attempt_at) continue;
    const at = new Date(last.next_attempt_at).getTime();
    if (soonest === null || at < soonest) soonest = at;
  }
  return soonest;
}

/** One attempt with the delivery it belongs to: what a late-attempt document holds. */
export type StoredAttempt = DeliveryAttemptRecord & Pick<DeliveryRecord, 'delivery_id' | 'target_id' | 'target_kind'>;

type StoredDelivery = {
  delivery_id: string;
  target_id: string;
  target_kind: string;
  state: AttemptLike['state'];
  attempts: Record<string, Omit<StoredAttempt, 'delivery_id' | 'target_id' | 'target_kind'>>;
};

interface MergeableRow {
  outcome?: string | null;
  target_count?: number | null;
  status: StatusGroup;
  last_error: string | null;
  deliveries: Record<string, StoredDelivery>;
}

/**
 * The row with `attempts` merged in, its delivery states, status group and latest error derived
 * again. Keyed by delivery id and attempt number, so merging the same attempt twice, or in any
 * order, gives the same row; a later record of an attempt replaces the earlier, but keeps its
 * stuck-key mark (`ordering`), which is only ever added.
 */
export function mergeAttempts<R extends MergeableRow>(row: R, attempts: StoredAttempt[]): R {
  const deliveries: Record<string, StoredDelivery> = {};
  for (const [id, d] of Object.entries(row.deliveries ?? {})) deliveries[id] = { ...d, attempts: { ...d.attempts } };
  for (const { delivery_id, target_id, target_kind, ...a } of attempts) {
    const d = (deliveries[delivery_id] ??= { delivery_id, target_id, target_kind, state: a.state, attempts: {} });
    const was = d.attempts[String(a.attempt)];
    // a stuck key's mark stays on its attempt: the record of that attempt from before the mark,
    // arriving again later (a redelivered message), must not take it off
    d.attempts[String(a.attempt)] = was?.ordering && !a.ordering ? { ...a, ordering: was.ordering } : a;
  }
  for (const d of Object.values(deliveries)) d.state = deliveryState(d.attempts) ?? d.state;
  const next = { ...row, deliveries };
  next.status = statusOf(next);
  next.last_error = lastError(deliveries);
  return next;
}
