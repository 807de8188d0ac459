import { createHash } from 'node:crypto';
import { idempotencyKey } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { IdempotencyClaim, IdempotencyStore } from '../domain/ports';
import type { RedisClient } from '@relay/cache';
import { beforeDeadline } from './before-deadline';

/** How long a request may hold a key while it is being decided (limits, then broker confirms). */
const IN_FLIGHT_MS = 30_000;

// SET NX, or what the key holds: one round trip, atomic.
const CLAIM_LUA = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return '' end
return redis.call('GET', KEYS[1]) or ''`;
// Only the request holding the key ends its claim (after IN_FLIGHT_MS another may hold it).
const COMPLETE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`;
const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

interface Commands {
  relayIdemClaim(key: string, value: string, ttl: number): Promise<string>;
  relayIdemComplete(key: string, held: string, done: string, ttl: number): Promise<number>;
  relayIdemRelease(key: string, held: string): Promise<number>;
}

export interface IdempotencyStoreOptions {
  /** a connection that still reads a late answer (the limiter's: limiterRedisOptions(LATE_ANSWER_MS)) */
  redis: RedisClient;
  /** LIMITER_TIMEOUT_MS: how long a request waits for Redis before it goes on without it */
  deadlineMs: number;
  namespace: string;
  /** IDEMPOTENCY_WINDOW_S: how long an accepted request's key answers for it */
  windowMs: number;
  logger: Logger;
  /** counts requests that went on without de-duplication because Redis could not be asked */
  onUnavailable: () => void;
}

/**
 * Idempotency keys in Redis (docs/ingest.md "Idempotency-Key"): per endpoint, the SHA-256 of
 * the sender's key (any text costs the same ~100 bytes) → `p:<event id>` while the first request
 * is decided (30 s at most), then `a:<event id>` for the window. Only accepted requests keep a
 * key, so the keys are at most the accepted events of one window, which the monthly quota
 * bounds. When Redis cannot be asked the request goes on without de-duplication (receivers
 * dedupe on X-Relay-Delivery-Id anyway): the key is an optimisation of an at-least-once contract,
 * not a reason to refuse events. Redis is waited for as the limiter waits (beforeDeadline): an
 * answer that came while the event loop was busy is read, so another request's claim is never
 * taken for Redis being down, which would make a second event.
 */
export function createIdempotencyStore(opts: IdempotencyStoreOptions): IdempotencyStore {
  const { redis, namespace, logger } = opts;
  redis.defineCommand('relayIdemClaim', { numberOfKeys: 1, lua: CLAIM_LUA });
  redis.defineCommand('relayIdemComplete', { numberOfKeys: 1, lua: COMPLETE_LUA });
  redis.defineCommand('relayIdemRelease', { numberOfKeys: 1, lua: RELEASE_LUA });
  const commands = redis as unknown as Commands;
  const redisKey = (endpointId: string, key: string) =>
    idempotencyKey(namespace, endpointId, createHash('sha256').update(key).digest('base64url'));
  const failed = (what: string, err: unknown) =>
    logger.warn(`idempotency key not ${what}: Redis unavailable`, { error: (err as Error).message });
  // a late claim, completion or release still runs in Redis: a claim it made is ended by this
  // request's complete or release, or runs out with IN_FLIGHT_MS
  const late = () => new Error(`no answer within ${opts.deadlineMs} ms`);
  /** `call` waited for until the deadline, its failure or lateness logged as not `what` */
  const settle = async (call: Promise<unknown>, what: string): Promise<void> => {
    const done = call.then(
      () => true,
      (err: unknown) => (failed(what, err), true),
    );
    if ((await beforeDeadline(done, opts.deadlineMs)) === undefined) failed(`${what} in time`, late());
  };

  return {
    async claim(endpointId, key, eventId): Promise<IdempotencyClaim> {
      try {
        const call = commands.relayIdemClaim(redisKey(endpointId, key), `p:${eventId}`, IN_FLIGHT_MS);
        // (a late failure is handled: the race holds the call's handlers)
        const held = await beforeDeadline(call, opts.deadlineMs);
        if (held === undefined) throw late();
        if (held === '') return { state: 'claimed' };
        if (held.startsWith('a:')) return { state: 'replay', eventId: held.slice(2) };
        return { state: 'in_flight' };
      } catch (err) {
        failed('checked', err);
        opts.onUnavailable();
        return { state: 'unavailable' };
      }
    },
    async complete(endpointId, key, eventId, windowMs = opts.windowMs) {
      await settle(
        commands.relayIdemComplete(redisKey(endpointId, key), `p:${eventId}`, `a:${eventId}`, windowMs),
        'recorded',
      );
    },
    async release(endpointId, key, eventId) {
      await settle(commands.relayIdemRelease(redisKey(endpointId, key), `p:${eventId}`), 'released');
    },
  };
}
