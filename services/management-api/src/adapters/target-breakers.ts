import { BreakerRedis, createBreakerStateWriter } from '@relay/target-gate';
import type { BreakerView } from '@relay/target-gate';
import type { RedisClient } from '@relay/cache';
import type { CacheChange } from '@relay/contracts';
import type { Store } from '@relay/store';

/** Pauses and resumes a target's deliveries by hand (docs/delivery-limits.md "Pause and resume"). */
export interface TargetBreakers {
  /** moves the breaker (Redis holds it), stores its state on the target and tells every cache; `won`: this call changed it */
  setByHand(
    target: { id: string; endpoint_id: string },
    to: 'paused' | 'closed',
    why: string,
  ): Promise<{ view: BreakerView; won: boolean }>;
}

/** The same scripts and the same stored copy as the deliverers' (@relay/target-gate), so the state has one keeper. */
export function createTargetBreakers(
  redis: RedisClient,
  namespace: string,
  store: Store,
  announce: (change: CacheChange) => Promise<void>,
): TargetBreakers {
  const breaker = new BreakerRedis(redis, namespace);
  const writer = createBreakerStateWriter(store, announce);
  return {
    async setByHand(target, to, why) {
      const r = await breaker.setByHand(target.id, to, why);
      await writer.write(target, r.view);
      return r;
    },
  };
}
