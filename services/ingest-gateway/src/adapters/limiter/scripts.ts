import { RATE_WINDOW_MS } from '../../domain/limits/sliding-window';

/**
 * Checks and counts both limits in one round trip. Atomic (Redis runs a script alone), so
 * every gateway instance sees one count. The quota is checked first: when it is used up a
 * rate-limit Retry-After of a few seconds would only send the sender into the quota next.
 * Nothing is counted unless both pass. The rate inequality is `admitsOneMore` of
 * domain/limits/sliding-window.ts, in the same integers.
 *
 * KEYS: rate counter of this minute, of the previous minute, monthly quota counter.
 * ARGV: rate limit per minute, ms elapsed in this minute, monthly quota, quota TTL s, rate TTL s.
 * Returns {verdict (0 admitted, 1 rate limited, 2 quota used up), prev, curr, quota used}.
 */
export const ADMIT_LUA = `
local limit = tonumber(ARGV[1])
local elapsed = tonumber(ARGV[2])
local used = tonumber(redis.call('GET', KEYS[3]) or '0')
local prev = tonumber(redis.call('GET', KEYS[2]) or '0')
local curr = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[3]) then return {2, prev, curr, used} end
if prev * (${RATE_WINDOW_MS} - elapsed) + (curr + 1) * ${RATE_WINDOW_MS} > limit * ${RATE_WINDOW_MS} then return {1, prev, curr, used} end
curr = redis.call('INCR', KEYS[1])
if curr == 1 then redis.call('EXPIRE', KEYS[1], ARGV[5]) end
used = redis.call('INCR', KEYS[3])
if used == 1 then redis.call('EXPIRE', KEYS[3], ARGV[4]) end
return {0, prev, curr, used}
`;

/**
 * Adds ARGV[1] (negative to give units back) to a quota counter, keeping its expiry. Used off
 * the hot path only: a refund after a failed publish, and the units counted per process
 * while Redis was unreachable.
 */
export const ADD_QUOTA_LUA = `
local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('TTL', KEYS[1]) == -1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return v
`;
