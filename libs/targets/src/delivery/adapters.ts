import { brokerNames, encodeMessage } from '@relay/contracts';
import type { ActivityAttemptV1 } from '@relay/contracts';
import type { ConfirmPublisher } from '@relay/broker';
import { toTarget } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import type { AttemptRecorder, TargetLookup } from './handle';

/** Target configurations cached for `ttlMs`; a deleted target is seen within that time. */
export function createTargetLookup(store: Store, ttlMs: number): TargetLookup {
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
  };
}

/** Attempt outcomes travel to the activity-writer through the broker, with confirms. */
export function createAttemptRecorder(publisher: ConfirmPublisher, namespace: string): AttemptRecorder {
  const names = brokerNames(namespace);
  return {
    record(attempt: ActivityAttemptV1) {
      return publisher.publish(names.activityExchange, names.activityRoutingKey, encodeMessage(attempt), {
        messageId: `${attempt.delivery_id}.${attempt.attempt}.outcome`,
        type: attempt.type,
      });
    },
  };
}
