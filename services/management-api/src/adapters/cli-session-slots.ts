import type { RedisClient } from '@relay/cache';

/**
 * The live `relay listen` sessions of each endpoint, counted across every management API
 * instance (docs/cli.md "Limits"): one sorted set per endpoint (`<ns>:cli-sessions:<endpoint>`),
 * session id → lease end in Redis's own clock. A session renews its lease on every heartbeat; an
 * instance that dies stops renewing, and its sessions' slots free themselves when the lease ends.
 * Each call is one script, O(log n) in the set, which never holds more than the limit.
 */
export interface CliSessionSlots {
  /** takes (or renews) a slot for `sessionId`; false when the endpoint already has `max` other live sessions */
  take(endpointId: string, sessionId: string, max: number): Promise<boolean>;
  release(endpointId: string, sessionId: string): Promise<void>;
}

// KEYS[1] the endpoint's set; ARGV: session id, max, lease ms
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1`;

export function createCliSessionSlots(redis: RedisClient, namespace: string, leaseMs: number): CliSessionSlots {
  const key = (endpointId: string): string => `${namespace}:cli-sessions:${endpointId}`;
  return {
    async take(endpointId, sessionId, max) {
      return Number(await redis.eval(TAKE, 1, key(endpointId), sessionId, max, leaseMs)) === 1;
    },
    async release(endpointId, sessionId) {
      await redis.zrem(key(endpointId), sessionId);
    },
  };
}
