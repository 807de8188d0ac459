import type { CliLocalOutcome } from '@relay/contracts';
import type { AttemptResult } from '../../kind';
import { retryAfterMs } from '../webhook/classify';

/** Why a forward got no local answer: no session bound, none answered in time, the broker refused it, the session ended. */
export type CliNoAnswer = 'no_session' | 'timeout' | 'broker_unavailable' | 'session_gone';

export const NO_SESSION = 'no relay listen session is connected for this target';

const NO_ANSWER: Readonly<Record<CliNoAnswer, string>> = {
  no_session: NO_SESSION,
  timeout: 'no relay listen session answered in time',
  broker_unavailable: 'the broker did not take the forward to the CLI session',
  session_gone: 'the relay listen session ended before the local server answered',
};

/**
 * The attempt's outcome (docs/cli.md "Outcomes"). The local server's answer is classified as a
 * webhook receiver's would be — 2xx delivered; 408, 425, 429 and 5xx retried (honouring
 * Retry-After); other answers permanent — but the target is never flagged: the local server is
 * a developer's work in progress, not a destination the operator must fix. A local network
 * failure (nothing listening on the port yet) and every way of getting no answer are retried on
 * the schedule, so events sent while nobody listens reach the next session or end as failed.
 */
export function classifyCliOutcome(got: CliLocalOutcome | CliNoAnswer, now = Date.now()): AttemptResult {
  if (typeof got === 'string') return { result: 'retry', status: null, error: NO_ANSWER[got] };
  if ('error' in got) return { result: 'retry', status: null, error: `local ${got.error.code}: ${got.error.message}` };
  const { status } = got;
  if (status >= 200 && status < 300) return { result: 'success', status };
  if (status === 408 || status === 425 || status === 429 || status >= 500) {
    const after = retryAfterMs(got.headers['retry-after'], now);
    return after === undefined
      ? { result: 'retry', status, error: `local HTTP ${status}` }
      : { result: 'retry', status, error: `local HTTP ${status}`, retryAfterMs: after };
  }
  return { result: 'permanent', status, error: `local HTTP ${status}`, flagTarget: false };
}
