import { RATE_WINDOW_MS } from '../../domain/limits/gcra';

/**
 * Checks and counts both limits in one round trip. Atomic (Redis runs a script alone), so
 * every gateway instance sees one count. The quota is checked first: when it is used up a
 * rate-limit Retry-After of a few seconds would only send the sender into the quota next.
 * Nothing is counted unless both pass. The rate limit is `gcraAdmit` of
 * domain/limits/gcra.ts, in the same integers (Lua numbers are doubles: exact below 2^53).
 *
 * KEYS: rate bucket of the endpoint (a hash: level, at), monthly quota counter, the month's
 * per-endpoint-and-day usage hash (usageDailyKey; same slot, same TTL).
 * ARGV: rate limit per minute, now (ms, the gateway's clock), monthly quota, quota TTL s, the
 * usage hash's field (`<endpoint_id>|<DD>`).
 * Returns {verdict (0 admitted, 1 rate limited, 2 quota used up), wait ms (verdict 1), quota used}.
 * The bucket is empty RATE_WINDOW_MS after its last request at the latest, so it expires then.
 */
export const ADMIT_LUA = `
local limit = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local used = tonumber(redis.call('GET', KEYS[2]) or '0')
if used >= tonumber(ARGV[3]) then return {2, 0, used} end
local bucket = redis.call('HMGET', KEYS[1], 'level', 'at')
local level = tonumber(bucket[1]) or 0
local at = tonumber(bucket[2]) or now
if now > at then
  level = level - (now - at) * limit
  if level < 0 then level = 0 end
  at = now
end
local excess = level + ${RATE_WINDOW_MS} - limit * ${RATE_WINDOW_MS}
if excess > 0 then return {1, math.ceil(excess / limit), used} end
redis.call('HSET', KEYS[1], 'level', level + ${RATE_WINDOW_MS}, 'at', at)
redis.call('PEXPIRE', KEYS[1], ${RATE_WINDOW_MS + 1000})
used = redis.call('INCR', KEYS[2])
if used == 1 then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
if redis.call('HINCRBY', KEYS[3], ARGV[5], 1) == 1 and redis.call('TTL', KEYS[3]) == -1 then redis.call('EXPIRE', KEYS[3], ARGV[4]) end
return {0, 0, used}
`;

/**
 * Adds ARGV[1] (negative to give units back) to a quota counter, keeping its expiry. Used off
 * the hot path only: a refund after a failed publish, and the units counted per process
 * while Redis was unreachable.
 */
/** A refund of one accepted event: the quota counter and its day in the usage hash (KEYS[2], field ARGV[3]). */
export const REFUND_LUA = `
local v = redis.call('INCRBY', KEYS[1], -1)
if redis.call('TTL', KEYS[1]) == -1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
redis.call('HINCRBY', KEYS[2], ARGV[2], -1)
return v
`;

export const ADD_QUOTA_LUA = `
local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('TTL', KEYS[1]) == -1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return v
`;

/** Counts one in a fixed-window counter (KEYS[1]) that expires ARGV[1] ms after its first count. */
export const COUNT_IN_WINDOW_LUA = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;
