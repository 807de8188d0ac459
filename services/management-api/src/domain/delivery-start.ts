import { timeOfResend } from '@relay/contracts';
import type { ActivityRecord, DeliveryRecord } from '@relay/store';

export type DeliveryWithStart = DeliveryRecord & { started_at: Date };

/**
 * When each delivery of a row began: the request's receipt for an event's
 * first delivery to a target, the time it was made for one made again — a resend, or the bulk
 * retry that made it (the time its tag carries, contracts ids.ts). A delivery's latency runs from
 * here, so a resend a day later is not a delivery that took a day.
 */
export function withDeliveryStarts(row: ActivityRecord): ActivityRecord & { deliveries: DeliveryWithStart[] } {
  return {
    ...row,
    deliveries: row.deliveries.map((d) => {
      const madeAt = timeOfResend(d.delivery_id);
      return { ...d, started_at: madeAt === null ? row.received_at : new Date(madeAt) };
    }),
  };
}

/** Each delivery with its target's name as it is now; null once the target was deleted. */
export function withTargetNames<R extends { deliveries: DeliveryRecord[] }>(
  row: R,
  names: Map<string, string>,
): R & { deliveries: Array<R['deliveries'][number] & { target_name: string | null }> } {
  return { ...row, deliveries: row.deliveries.map((d) => ({ ...d, target_name: names.get(d.target_id) ?? null })) };
}
