/*
 * The per-target limits and circuit breaker, as Lua run atomically by Redis
 * (docs/delivery-limits.md). Every script touches only one target's keys, which share the hash
 * tag `{<target id>}` (keys.ts), so each runs on one slot of a Redis Cluster. Time is Redis'
 * own (TIME), so deliverers with skewed clocks still share one window. Every structure is
 * bounded: the rate log holds at most `rate` entries, the lease set at most `max_in_flight`,
 * the breaker hash 6 buckets and a few fields.
 *
 * The breaker hash: state (closed|open|half_open|paused; absent = closed), since (ms), reason,
 * seq (bumped by every transition), flagged (1 once a long-open breaker asked for the flag),
 * and six buckets of the failure window: s<i> (bucket number), o<i> (successes), f<i> (failures).
 */

/** How long a closed breaker's hash outlives its last report: two of the longest windows (3,600 s). */
const CLOSED_TTL_MS = 7_200_000;
/** How soon a paused target's held deliveries ask again: a tenth of the time paused, within these. */
export const PAUSED_RECHECK_MIN_MS = 1_000;
export const PAUSED_RECHECK_MAX_MS = 60_000;

const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** Moves the breaker to `to` (KEYS[1]); returns the new seq. */
const TRANSITION = `
local CLOSED_TTL_MS = ${CLOSED_TTL_MS}
local function transition(to, now, reason)
  local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
  redis.call('HSET', KEYS[1], 'state', to, 'since', now, 'reason', reason)
  if to ~= 'open' then redis.call('HDEL', KEYS[1], 'flagged') end
  if to == 'closed' or to == 'paused' then
    for i = 0, 5 do redis.call('HDEL', KEYS[1], 's' .. i, 'o' .. i, 'f' .. i) end
  end
  -- a closed breaker's hash is only its window: it goes when the target goes quiet
  if to == 'closed' then redis.call('PEXPIRE', KEYS[1], CLOSED_TTL_MS) else redis.call('PERSIST', KEYS[1]) end
  return seq
end
local function view(seq)
  local h = redis.call('HMGET', KEYS[1], 'state', 'since', 'reason', 'seq')
  return {h[1] or 'closed', tonumber(h[2] or '0'), h[3] or '', tonumber(h[4] or '0')}
end
`;

/**
 * GATE — may this delivery be sent now (or: a batch of tokens and slots for this process)?
 * KEYS: breaker hash, rate log (zset), in-flight leases (zset), probe lock.
 * ARGV: lease id, rate (0: none), window ms, max in flight (0: none), lease ms, cool-down ms,
 *       flag-after ms, tokens wanted, slots wanted, valid ms, n, then n rate-log members and
 *       any number of leases given back (allowance.ts: a batch's unspent tokens and idle slots).
 * Returns {verdict, reason, wait ms, state, since, why, seq, won, flag, tokens, slots}:
 *   verdict `go` (`tokens` rate-log entries `<lease>#1…` and `slots` leases `<lease>`,
 *   `<lease>#2…` were taken, each only where the target has that limit and it was wanted),
 *   `probe` (the one attempt of a half-open breaker; no lease), `hold` (send nothing; wait
 *   about `wait` ms). `won` is 1 when this call made a transition (open → half_open); `flag` 1
 *   when this call found the breaker open longer than flag-after (one call per episode).
 *   A batch's tokens count from now + valid, the latest they may be spent (a single call's
 *   valid is 0), so the log holds each send in every window it can fall in.
 */
export const GATE = `${NOW}${TRANSITION}
local lease, rate, window, maxFlight, leaseMs, coolDown, flagAfter = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local wantTokens, wantSlots, valid, nBack = tonumber(ARGV[8] or '1'), tonumber(ARGV[9] or '1'), tonumber(ARGV[10] or '0'), tonumber(ARGV[11] or '0')
if nBack > 0 then redis.call('ZREM', KEYS[2], unpack(ARGV, 12, 11 + nBack)) end
if #ARGV > 11 + nBack then redis.call('ZREM', KEYS[3], unpack(ARGV, 12 + nBack)) end
local state = redis.call('HGET', KEYS[1], 'state') or 'closed'
local function reply(verdict, reason, wait, won, flag, tokens, slots)
  local v = view()
  return {verdict, reason, math.floor(wait), v[1], v[2], v[3], v[4], won, flag, tokens or 0, slots or 0}
end
if state == 'paused' then
  -- re-asked after a tenth of the time paused so far, 1 s to 60 s: a short pause is felt
  -- short after Resume, a long one costs each held delivery one publish a minute
  local since = tonumber(redis.call('HGET', KEYS[1], 'since') or now)
  return reply('hold', 'paused', math.max(${PAUSED_RECHECK_MIN_MS}, math.min(${PAUSED_RECHECK_MAX_MS}, (now - since) / 10)), 0, 0)
end
if state == 'open' then
  local since = tonumber(redis.call('HGET', KEYS[1], 'since') or now)
  local flag = 0
  if now - since >= flagAfter and redis.call('HSETNX', KEYS[1], 'flagged', '1') == 1 then flag = 1 end
  if now - since < coolDown then return reply('hold', 'open', since + coolDown - now, 0, flag) end
  if redis.call('SET', KEYS[4], lease, 'NX', 'PX', leaseMs) then
    transition('half_open', now, 'probing after ' .. math.floor(coolDown / 1000) .. ' s open')
    return reply('probe', 'half_open', 0, 1, flag)
  end
  return reply('hold', 'open', 1000, 0, flag)
end
if state == 'half_open' then
  -- a prober that died leaves its lock to expire; then the next delivery probes
  if redis.call('SET', KEYS[4], lease, 'NX', 'PX', leaseMs) then return reply('probe', 'half_open', 0, 0, 0) end
  return reply('hold', 'half_open', math.min(coolDown, 5000), 0, 0)
end
local slots, tokens = 0, 0
if maxFlight > 0 and wantSlots > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  local free = maxFlight - redis.call('ZCARD', KEYS[3])
  if free <= 0 then return reply('hold', 'in_flight', 1000, 0, 0) end
  slots = math.min(wantSlots, free)
end
if rate > 0 and wantTokens > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
  local free = rate - redis.call('ZCARD', KEYS[2])
  if free <= 0 then
    -- waiters are spread one rate interval apart behind the log's oldest entry, so a burst
    -- of held deliveries comes back at about the rate instead of all at once
    local oldest = tonumber(redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2])
    local tail = tonumber(redis.call('HGET', KEYS[1], 'tail') or '0')
    if tail < oldest + window then tail = oldest + window end
    redis.call('HSET', KEYS[1], 'tail', tail + window / rate)
    redis.call('PEXPIRE', KEYS[1], CLOSED_TTL_MS)
    return reply('hold', 'rate', tail - now, 0, 0)
  end
  tokens = math.min(wantTokens, free)
  local entries = {}
  for i = 1, tokens do
    entries[#entries + 1] = now + valid
    entries[#entries + 1] = lease .. '#' .. i
  end
  redis.call('ZADD', KEYS[2], unpack(entries))
  redis.call('PEXPIRE', KEYS[2], window + valid)
end
if slots > 0 then
  local entries = {}
  for i = 1, slots do
    entries[#entries + 1] = now + leaseMs
    entries[#entries + 1] = i == 1 and lease or lease .. '#' .. i
  end
  redis.call('ZADD', KEYS[3], unpack(entries))
  redis.call('PEXPIRE', KEYS[3], leaseMs)
end
return reply('go', state, 0, 0, 0, tokens, slots)
`;

/**
 * GIVE_BACK — a process's unspent rate tokens and idle in-flight slots (allowance.ts).
 * KEYS: rate log, in-flight leases. ARGV: n, then n rate-log members, then leases.
 */
export const GIVE_BACK = `
local n = tonumber(ARGV[1])
if n > 0 then redis.call('ZREM', KEYS[1], unpack(ARGV, 2, 1 + n)) end
if #ARGV > 1 + n then redis.call('ZREM', KEYS[2], unpack(ARGV, 2 + n)) end
return 1
`;

/**
 * REPORT — outcomes of one target's attempts since the last report, and the leases they held.
 * KEYS: breaker hash, in-flight leases.
 * ARGV: successes, failures, window ms, min attempts, failure rate pct, lease ids…
 * Returns {state, since, why, seq, won}: `won` 1 when this report opened the breaker.
 */
export const REPORT = `${NOW}${TRANSITION}
local ok, failed, window, minAttempts, pct = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
if #ARGV > 5 then redis.call('ZREM', KEYS[2], unpack(ARGV, 6)) end
-- the whole hash in one read (a few dozen fields): one call where a field at a time took ~20,
-- and this script runs about once per target per second (docs/delivery-limits.md)
local raw = redis.call('HGETALL', KEYS[1])
local h = {}
for i = 1, #raw, 2 do h[raw[i]] = raw[i + 1] end
local state = h['state'] or 'closed'
local won = 0
if state == 'closed' and ok + failed > 0 then
  local width = math.floor(window / 6)
  local bucket = math.floor(now / width)
  local slot = bucket % 6
  if tonumber(h['s' .. slot] or '-1') ~= bucket then
    redis.call('HSET', KEYS[1], 's' .. slot, bucket, 'o' .. slot, ok, 'f' .. slot, failed)
    h['s' .. slot], h['o' .. slot], h['f' .. slot] = bucket, ok, failed
  else
    h['o' .. slot] = redis.call('HINCRBY', KEYS[1], 'o' .. slot, ok)
    h['f' .. slot] = redis.call('HINCRBY', KEYS[1], 'f' .. slot, failed)
  end
  local total, fails = 0, 0
  for i = 0, 5 do
    if tonumber(h['s' .. i] or '-1') > bucket - 6 then
      total = total + tonumber(h['o' .. i] or '0') + tonumber(h['f' .. i] or '0')
      fails = fails + tonumber(h['f' .. i] or '0')
    end
  end
  redis.call('PEXPIRE', KEYS[1], CLOSED_TTL_MS)
  if total >= minAttempts and fails * 100 >= pct * total then
    transition('open', now, fails .. ' of ' .. total .. ' attempts failed in ' .. math.floor(window / 1000) .. ' s')
    for i = 0, 5 do redis.call('HDEL', KEYS[1], 's' .. i, 'o' .. i, 'f' .. i) end
    won = 1
  end
end
if won == 1 then
  local v = view()
  return {v[1], v[2], v[3], v[4], won}
end
return {state, tonumber(h['since'] or '0'), h['reason'] or '', tonumber(h['seq'] or '0'), 0}
`;

/**
 * PROBE — the half-open breaker's one attempt ended.
 * KEYS: breaker hash, probe lock. ARGV: lease id, 1 (the destination answered: close), 0 (it
 * failed: open again) or anything else (nothing was sent: only the lock is let go), why.
 * Returns {state, since, why, seq, won}.
 */
export const PROBE = `${NOW}${TRANSITION}
local lease, ok, why = ARGV[1], ARGV[2], ARGV[3]
local won = 0
if redis.call('GET', KEYS[2]) == lease then redis.call('DEL', KEYS[2]) end
if (redis.call('HGET', KEYS[1], 'state') or 'closed') == 'half_open' then
  if ok == '1' then transition('closed', now, 'probe succeeded'); won = 1
  elseif ok == '0' then transition('open', now, 'probe failed: ' .. why); won = 1 end
end
local v = view()
return {v[1], v[2], v[3], v[4], won}
`;

/**
 * SET_BY_HAND — pause (from any state) or resume (from paused only: a resumed target starts
 * closed, with an empty window). KEYS: breaker hash. ARGV: `paused` | `closed`, why.
 * Returns {state, since, why, seq, won}.
 */
export const SET_BY_HAND = `${NOW}${TRANSITION}
local to, why = ARGV[1], ARGV[2]
local state = redis.call('HGET', KEYS[1], 'state') or 'closed'
local won = 0
if (to == 'paused' and state ~= 'paused') or (to == 'closed' and state == 'paused') then
  transition(to, now, why)
  won = 1
end
local v = view()
return {v[1], v[2], v[3], v[4], won}
`;

/** READ — the breaker's state. KEYS: breaker hash. Returns {state, since, why, seq}. */
export const READ = `${TRANSITION}
return view()
`;
