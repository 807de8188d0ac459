import { DELIVERY_V1, resendDeliveryId } from '@relay/contracts';
import type { DeliveryChannel, DeliveryMessageV1 } from '@relay/contracts';
import { currentDeliveries, deliveryState } from '@relay/activity-log';
import type { StoredPayload } from '@relay/activity-log';
import type { ActivityDoc } from '@relay/store';

/** A target an event can be delivered to again, with the queue its kind is delivered from. */
export interface ResendTarget {
  id: string;
  kind: string;
  channel: DeliveryChannel;
}

/**
 * Most deliveries resends may add to one event: a resend to 5 targets uses 5.
 * Every delivery is kept in the event's activity row, so without a ceiling a script resending one
 * event grew its row without limit (261 resends × 5 targets: 433 KB, reads and resends > 1 s).
 * With it the row stays below its first deliveries plus this many, and so do its read and resend
 * times; a resend past it is refused with 409 `resend_limit_reached` (docs/management-api.md).
 */
export const MAX_RESENT_DELIVERIES_PER_EVENT = 100;

/** Most targets one resend may name (`target_ids`). */
export const MAX_RESEND_TARGET_IDS = 50;

/** Why an event cannot be delivered again; the route answers each with its own code. */
export type NotResendable = 'not_accepted' | 'payload_not_stored';

/**
 * An event can be delivered again only if it was accepted (a rejected request has nothing to
 * deliver) and its record and payload are stored with its row (payloads are kept from this version on, for
 * as long as the row).
 */
export function resendable(
  row: Pick<ActivityDoc, 'outcome' | 'aggregate'>,
  payload: StoredPayload | null,
): NotResendable | null {
  // no outcome yet: the row's deliveries came before the gateway's record of the request, which
  // holds what the event was routed to; the resend waits for it as for a payload on its way
  if (!row.outcome && !row.aggregate) return 'payload_not_stored';
  if (row.outcome !== 'ACCEPTED' || row.aggregate) return 'not_accepted';
  if (!payload) return 'payload_not_stored';
  return null;
}

/**
 * One new delivery per target, under the event's own id: the payload and the sender's request
 * as the first deliveries carried them, attempt 1, a new delivery id `<first>_r<tag>` (the
 * receiver sees a new X-Relay-Delivery-Id and the same X-Relay-Event-Id). The same `tag` gives
 * the same ids, so a bulk retry repeated after a crash publishes the same deliveries again
 * instead of new ones (receivers dedupe on the delivery id; the row merges them).
 */
export function resendDeliveries(
  row: ActivityDoc,
  payload: StoredPayload,
  targets: ResendTarget[],
  tag: string,
): { message: DeliveryMessageV1; channel: DeliveryChannel }[] {
  return targets.map((t) => ({
    channel: t.channel,
    message: {
      type: DELIVERY_V1,
      event_id: row._id,
      delivery_id: resendDeliveryId(row._id, t.id, tag),
      attempt: 1,
      account_id: row.account_id,
      endpoint_id: row.endpoint_id,
      target_id: t.id,
      target_kind: t.kind,
      received_at: row.received_at.toISOString(),
      request: payload.request,
      payload: payload.payload,
    },
  }));
}

/** The targets whose current delivery (the latest, resends included) failed for good, or whose transformation failed. */
export function failedTargets(row: Pick<ActivityDoc, 'deliveries'>): string[] {
  return currentDeliveries(row.deliveries)
    .filter((d) => ['failed', 'transform_failed'].includes(deliveryState(d.attempts) ?? ''))
    .map((d) => d.target_id);
}
