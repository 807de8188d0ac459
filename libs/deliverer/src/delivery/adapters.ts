import { brokerNames, encodeMessage, MAX_ACTIVITY_BATCH } from '@relay/contracts';
import type { ActivityAttemptV1, DeliveryChannel } from '@relay/contracts';
import { createActivityPublisher } from '@relay/broker';
import type { ConfirmPublisher } from '@relay/broker';
import { toTarget } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import { DEAD_AT_HEADER, DEAD_ERROR_HEADER, DEAD_REASON_HEADER, DEAD_STATUS_HEADER, SCHEDULE_BASE_HEADER } from '../retry/headers';
import type { AttemptRecorder, DeliveryRouter, TargetHealth, TargetLookup } from './ports';

export interface CachedTargetLookup extends TargetLookup {
  /** drops one cached target, e.g. after this process flagged it */
  forget(targetId: string): void;
}

/** Target configurations cached for `ttlMs`; a deleted or flagged target is seen within that time. */
export function createTargetLookup(store: Store, ttlMs: number): CachedTargetLookup {
  const cache = new Map<string, { value: TargetRecord | null; expires: number }>();
  return {
    async find(targetId) {
      const hit = cache.get(targetId);
      if (hit && hit.expires > Date.now()) return hit.value;
      const doc = await store.targets.findById(targetId).lean();
      const value = doc ? toTarget(doc) : null;
      cache.set(targetId, { value, expires: Date.now() + ttlMs });
      return value;
    },
    forget: (targetId) => void cache.delete(targetId),
  };
}

/** Attempt outcomes travel to the activity-writer through the broker, in batches, with confirms; the delivery is acked after. */
export function createAttemptRecorder(publisher: ConfirmPublisher, namespace: string): AttemptRecorder {
  // the delivery's ack waits for this confirm, holding a prefetch slot: gather only what finished together
  const activity = createActivityPublisher(publisher, namespace, { maxItems: MAX_ACTIVITY_BATCH, lingerMs: 1 });
  return {
    record: (attempt: ActivityAttemptV1) => activity.publish(attempt),
  };
}

/**
 * Retries go to the retry exchange with the tier's routing key (its TTL queue dead-letters
 * them back to the work queue); dead deliveries to the dead-letter exchange. Publishes are
 * persistent and mandatory, so a tier this broker does not have fails instead of vanishing.
 */
export function createDeliveryRouter(publisher: ConfirmPublisher, namespace: string, channel: DeliveryChannel): DeliveryRouter {
  const names = brokerNames(namespace);
  return {
    retry(next, tierMs, scheduleBase) {
      const exchange = tierMs > 0 ? names.retryExchange : names.deliveriesExchange;
      const routingKey = tierMs > 0 ? names.retryRoutingKey(channel, tierMs) : channel;
      return publisher.publish(exchange, routingKey, encodeMessage(next), {
        messageId: `${next.delivery_id}.${next.attempt}`,
        type: next.type,
        headers: { [SCHEDULE_BASE_HEADER]: scheduleBase },
      });
    },
    deadLetter(delivery, why) {
      const headers: Record<string, unknown> = {
        [DEAD_REASON_HEADER]: why.reason,
        [DEAD_ERROR_HEADER]: why.error.slice(0, 500),
        [DEAD_AT_HEADER]: why.at.toISOString(),
      };
      if (why.status !== null) headers[DEAD_STATUS_HEADER] = why.status;
      return publisher.publish(names.deadLetterExchange, channel, encodeMessage(delivery), {
        messageId: `${delivery.delivery_id}.${delivery.attempt}.dead`,
        type: delivery.type,
        headers,
      });
    },
  };
}

/**
 * The flag lives on the target document, so every instance stops sending once it is set.
 * The streak of permanent failures is counted in-process, per instance: it costs no write on
 * the hot path, and a shared counter would not be exact anyway — FerretDB applies concurrent
 * `$inc`s on one document as read-then-write, losing most of them (measured: 40 concurrent
 * increments → 1). With k instances a target is flagged after N failures in a row at one of
 * them (docs/delivery.md "Flagged targets").
 */
export function createTargetHealth(store: Store, lookup: CachedTargetLookup): TargetHealth {
  const streaks = new Map<string, number>();
  return {
    async flag(targetId, reason) {
      streaks.delete(targetId);
      // only an unflagged target matches: another instance's flag (and its reason) stands
      const result = await store.targets.updateOne({ _id: targetId, flagged: null }, { $set: { flagged: { reason, at: new Date() } } });
      lookup.forget(targetId);
      return result.modifiedCount > 0;
    },
    permanentFailure(targetId) {
      const streak = (streaks.get(targetId) ?? 0) + 1;
      streaks.set(targetId, streak);
      return streak;
    },
    reset: (targetId) => void streaks.delete(targetId),
  };
}
