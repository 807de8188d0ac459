import type { Redis } from 'ioredis';
import { endpointChangedChannel } from '@relay/contracts';
import type { Logger } from '@relay/logging';

/**
 * Tells every gateway that an endpoint changed, so its cached copy is dropped at once
 * instead of after the cache TTL. Losing an announcement (Redis down) only delays the
 * change by that TTL, so it is logged, not raised.
 */
export function createInvalidator(redis: Redis, namespace: string, logger: Logger) {
  const channel = endpointChangedChannel(namespace);
  return async (endpointId: string): Promise<void> => {
    try {
      await redis.publish(channel, endpointId);
    } catch (err) {
      logger.warn('endpoint change announcement failed; gateways see it after their cache TTL', { endpoint_id: endpointId, error: (err as Error).message });
    }
  };
}
