import { createChangePublisher } from '@relay/cache';
import type { CacheChange } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { RedisClient } from '@relay/cache';

/**
 * The one function every write route calls after its write: tells every gateway and deliverer
 * that a stored setting changed (docs/architecture.md "Caches of settings"), once per change.
 * Caches keep entries until told; an announcement Redis would not take is retried every second
 * until it goes through (and followers that missed one revalidate what they hold), so it is
 * logged, not raised.
 */
export function createInvalidator(
  redis: RedisClient,
  namespace: string,
  logger: Logger,
): (change: CacheChange) => Promise<void> {
  const publisher = createChangePublisher(redis, namespace, logger);
  return async (change) => void (await publisher.announce(change));
}
