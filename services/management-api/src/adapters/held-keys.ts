import type { RedisClient } from '@relay/cache';
import { orderingHeldKey } from '@relay/contracts';
import type { HeldOrderKey } from '@relay/contracts';

/** The most held keys one answer lists (a target's held keys are bounded by the deliverers' prefetch windows). */
export const MAX_HELD_KEYS_SHOWN = 100;

/** Reads the ordering keys the deliverers hold back for a target (docs/ordering.md "Held keys"). */
export interface HeldKeysReader {
  /** oldest first, at most MAX_HELD_KEYS_SHOWN */
  of(targetId: string): Promise<HeldOrderKey[]>;
}

export function createHeldKeysReader(redis: RedisClient, namespace: string): HeldKeysReader {
  return {
    async of(targetId) {
      const stored = await redis.hgetall(orderingHeldKey(namespace, targetId));
      return Object.values(stored)
        .flatMap((json) => {
          try {
            return [JSON.parse(json) as HeldOrderKey];
          } catch {
            return [];
          }
        })
        .sort((a, b) => a.since.localeCompare(b.since) || a.key.localeCompare(b.key))
        .slice(0, MAX_HELD_KEYS_SHOWN);
    },
  };
}
