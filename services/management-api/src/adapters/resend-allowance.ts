import type { RedisClient } from '@relay/cache';

/**
 * How many deliveries resends may still add to one event's activity row (docs/management-api.md
 * "Resend"). One counter per resent event in Redis, shared by every
 * management-api instance, living as long as the row (ACTIVITY_RETENTION_DAYS): an event resent
 * past its allowance is refused, so the row — and its read and resend times — stop growing.
 */
export interface ResendAllowance {
  /** the ceiling: deliveries resends and bulk retries may add to one event in all */
  readonly max: number;
  /**
   * How much of the account's event's allowance is used (0: never resent). Keyed by account too,
   * so a resend past the allowance is refused before the row is read, and a count never tells
   * another account that an event exists.
   */
  used(accountId: string, eventId: string): Promise<number>;
  /** takes `deliveries` of the event's allowance; false (nothing taken) when they do not fit */
  take(accountId: string, eventId: string, deliveries: number): Promise<{ ok: true } | { ok: false; used: number }>;
  /** gives back what a resend took but did not publish */
  giveBack(accountId: string, eventId: string, deliveries: number): Promise<void>;
}

/** Check and take in one step: two instances cannot both take the last of an allowance. */
const TAKE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return -1 - used end
used = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return used`;

export function createResendAllowance(
  redis: RedisClient,
  namespace: string,
  maxPerEvent: number,
  ttlMs: number,
): ResendAllowance {
  const key = (accountId: string, eventId: string): string => `${namespace}:resent:${accountId}:${eventId}`;
  return {
    max: maxPerEvent,
    async used(accountId, eventId) {
      return Number((await redis.get(key(accountId, eventId))) ?? 0);
    },
    async take(accountId, eventId, deliveries) {
      // unlike the per-minute ceilings this fails closed: a Redis outage must not unbound a row
      const reply = Number(await redis.eval(TAKE, 1, key(accountId, eventId), deliveries, maxPerEvent, ttlMs));
      return reply >= 0 ? { ok: true } : { ok: false, used: -1 - reply };
    },
    async giveBack(accountId, eventId, deliveries) {
      await redis.decrby(key(accountId, eventId), deliveries);
    },
  };
}
