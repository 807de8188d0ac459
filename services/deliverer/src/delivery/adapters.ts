import { MAX_ACTIVITY_BATCH } from '@relay/contracts';
import { withTraceHeaders } from '@relay/telemetry';
import type { ActivityAttemptV1, DeliveryChannel } from '@relay/contracts';
import { createActivityPublisher, DeliveryPublisher } from '@relay/broker';
import type { ConfirmPublisher } from '@relay/broker';
import type { ChangePublisher } from '@relay/cache';
import { flagTarget } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import {
  DEAD_AT_HEADER,
  DEAD_ERROR_HEADER,
  DEAD_REASON_HEADER,
  DEAD_STATUS_HEADER,
  HOLD_UNTIL_HEADER,
  SCHEDULE_BASE_HEADER,
} from '../retry/headers';
import type { AttemptRecorder, DeliveryRouter, TargetHealth } from './ports';
import type { TargetCache } from './target-cache';

/** Attempt outcomes travel to the activity-writer through the broker, in batches, with confirms; the delivery is acked after. */
export function createAttemptRecorder(publisher: ConfirmPublisher, namespace: string): AttemptRecorder {
  // the delivery's ack waits for this confirm, holding a prefetch slot: gather only what finished
  // together — 1 ms for one account's attempts, up to 8 ms when they spread over the 8 partitions,
  // so that a message still carries what 1 ms of one account's did (at 1,000 endpoints over 10
  // accounts most went alone, a message per attempt). 8 ms of 1,600 attempts a second hold
  // 13 of the 256 prefetch slots.
  const activity = createActivityPublisher(publisher, namespace, {
    maxItems: MAX_ACTIVITY_BATCH,
    lingerMs: 1,
    spreadLinger: true,
  });
  return {
    record: (attempt: ActivityAttemptV1) => activity.publish(attempt),
  };
}

/**
 * Retries go to the retry exchange with the tier's routing key (its TTL queue dead-letters
 * them back to the work queue); dead deliveries to the dead-letter exchange. Publishes are
 * persistent and mandatory, so a tier this broker does not have fails instead of vanishing.
 */
export function createDeliveryRouter(
  publisher: ConfirmPublisher,
  namespace: string,
  channel: DeliveryChannel,
): DeliveryRouter {
  const deliveries = new DeliveryPublisher(publisher, namespace);
  return {
    // the next attempt stays in the event's trace: a child of this attempt (nothing when tracing is off)
    retry: (next, tierMs, scheduleBase, holdUntil) =>
      deliveries.retry(
        next,
        channel,
        tierMs,
        withTraceHeaders({
          [SCHEDULE_BASE_HEADER]: scheduleBase,
          ...(holdUntil === undefined ? {} : { [HOLD_UNTIL_HEADER]: holdUntil }),
        })!,
      ),
    deadLetter(delivery, why) {
      const headers: Record<string, unknown> = {
        [DEAD_REASON_HEADER]: why.reason,
        [DEAD_ERROR_HEADER]: why.error.slice(0, 500),
        [DEAD_AT_HEADER]: why.at.toISOString(),
      };
      if (why.status !== null) headers[DEAD_STATUS_HEADER] = why.status;
      return deliveries.deadLetter(delivery, channel, headers);
    },
  };
}

/**
 * The flag lives on the target document, so every instance stops sending once it is set.
 * The streak of permanent failures is counted in-process, per instance: it costs no write on
 * the hot path, and a shared counter would not be exact anyway — FerretDB applies concurrent
 * `$inc`s on one document as read-then-write, losing most of them (measured: 40 concurrent
 * increments → 1). With k instances a target is flagged after N failures in a row at one of
 * them (docs/delivery.md "Flagged targets"). A flag set here is announced like a change made in
 * the management API, so every deliverer's cache drops the target at once.
 */
export function createTargetHealth(
  store: Store,
  targets: TargetCache,
  changes: ChangePublisher,
  onFlagged: (target: TargetRecord, reason: string) => Promise<void> = async () => undefined,
): TargetHealth {
  const streaks = new Map<string, number>();
  return {
    async flag(targetId, reason) {
      streaks.delete(targetId);
      // only an unflagged target matches: another instance's flag (and its reason) stands
      const target = await targets.find(targetId);
      const flagged = await flagTarget(store, targetId, reason, new Date());
      targets.forget(targetId);
      if (target && flagged) {
        await changes.announce({ scope: 'target', id: targetId, endpoint_id: target.endpoint_id });
        // only the instance whose update set the flag tells the account (alerts, docs/alerts.md)
        await onFlagged(target, reason);
      }
      return flagged;
    },
    permanentFailure(targetId) {
      const streak = (streaks.get(targetId) ?? 0) + 1;
      streaks.set(targetId, streak);
      return streak;
    },
    reset: (targetId) => void streaks.delete(targetId),
  };
}
