import { classifyFailureCode } from '../../http/failures';
import type { AttemptResult } from '../../kind';
import type { AppendOutcome } from '../../transports/redis';
import { safeErrorText } from '../template';

/**
 * Server errors that the same target will get again until its operator changes something: the
 * credentials (WRONGPASS, NOAUTH, NOPERM: an ACL user without +xadd or the key), the key (a
 * WRONGTYPE key that is not a stream), the server (ERR: XADD unknown before Redis 5, a database
 * number out of range; MOVED: a Redis Cluster node, which this kind does not follow).
 */
const TARGET_FIXES: Readonly<Record<string, string>> = {
  WRONGPASS: 'Redis refused the credentials (WRONGPASS): check the user and password in the URL',
  NOAUTH: 'Redis requires a password (NOAUTH): add it to the URL',
  NOPERM: 'the Redis user may not XADD to this stream (NOPERM): grant it +xadd on the key',
  WRONGTYPE: 'the key holds a value that is not a stream (WRONGTYPE): choose another stream key',
  MOVED: 'the server is a Redis Cluster node and the stream lives on another (MOVED): clusters are not supported',
};

/**
 * How one XADD ended (docs/targets-queues.md "Redis Streams"):
 * - an entry id → success;
 * - a server error in TARGET_FIXES, other `ERR` replies, an SSRF-refused address or an
 *   untrusted certificate → permanent, the target flagged with the reason;
 * - anything else (refused, reset or timed-out connections, LOADING, BUSY, OOM, READONLY during
 *   a failover, MASTERDOWN) → retry on the target's schedule.
 */
export function classifyRedisAppend(outcome: AppendOutcome): AttemptResult {
  if ('id' in outcome) return { result: 'success', status: null };
  const { code, message } = outcome.error;
  const fix = TARGET_FIXES[code];
  if (fix) return { result: 'permanent', status: null, error: fix, flagTarget: true };
  // the server's own words: a reply never holds the password, which Redis does not echo
  if (code === 'ERR')
    return {
      result: 'permanent',
      status: null,
      error: `Redis refused XADD: ${safeErrorText(message)}`,
      flagTarget: true,
    };
  const failure = classifyFailureCode(code);
  if (failure === 'ssrf_blocked' || failure === 'untrusted_certificate')
    return { result: 'permanent', status: null, error: `Redis not dialled (${code})`, flagTarget: true };
  return { result: 'retry', status: null, error: `Redis unavailable (${safeErrorText(code, 40)})` };
}
