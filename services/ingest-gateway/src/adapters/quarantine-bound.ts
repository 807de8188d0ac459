import { quarantineKey } from '@relay/contracts';
import type { RedisClient } from '@relay/cache';
import type { Logger } from '@relay/logging';
import type { QuarantineBound } from '../domain/ports';

const HOUR_MS = 3_600_000;

// INCR, and the hour's expiry with the first: one round trip, atomic.
const TAKE_LUA = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

interface Commands {
  relayQuarantineTake(key: string, ttlMs: number): Promise<number>;
}

/**
 * The account's quarantined requests per UTC hour, in Redis (one counter per account and hour,
 * shared by every gateway). When Redis cannot be asked the request is kept: a lost refused
 * event is what quarantine exists to prevent, and its size is bounded by MAX_BODY_BYTES.
 */
export function createQuarantineBound(opts: {
  redis: RedisClient;
  namespace: string;
  /** QUARANTINE_PER_ACCOUNT_PER_HOUR */
  perHour: number;
  logger: Logger;
}): QuarantineBound {
  opts.redis.defineCommand('relayQuarantineTake', { numberOfKeys: 1, lua: TAKE_LUA });
  const commands = opts.redis as unknown as Commands;
  return {
    async take(accountId, now) {
      try {
        // the key outlives its hour a little: the count is never reset while the hour lasts
        const n = await commands.relayQuarantineTake(quarantineKey(opts.namespace, accountId, now), 2 * HOUR_MS);
        return n <= opts.perHour;
      } catch (err) {
        opts.logger.warn('quarantine bound not counted: Redis unavailable', {
          account_id: accountId,
          error: (err as Error).message,
        });
        return true;
      }
    },
  };
}
