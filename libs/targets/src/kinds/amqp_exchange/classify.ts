import { classifyFailureCode } from '../../http/failures';
import type { AttemptResult } from '../../kind';
import type { PublishOutcome } from '../../transports/amqp';

/**
 * AMQP 0-9-1 replies (spec §1.9 constants) that the same target gets again until its operator
 * changes something: the credentials or the user's permissions, the virtual host, the exchange.
 */
const TARGET_FIXES: Readonly<Record<string, string>> = {
  ACCESS_REFUSED:
    'the broker refused the user (ACCESS_REFUSED): check the user and password in the URL, and its permissions on the virtual host and exchange',
  NOT_ALLOWED: 'the broker refused the virtual host (NOT_ALLOWED): check that it exists and the user may use it',
  NOT_FOUND: 'the exchange does not exist on the broker (NOT_FOUND): declare it, or change the exchange name',
};

/**
 * How one publish ended (docs/targets-queues.md "RabbitMQ"):
 * - confirmed (basic.ack) → success;
 * - a reply in TARGET_FIXES, an SSRF-refused address or an untrusted certificate → permanent,
 *   the target flagged with the reason;
 * - returned (no queue bound for the routing key), a nack, a closed or refused connection, no
 *   confirm in time → retry: a binding added or a broker back later takes it.
 */
export function classifyAmqpPublish(outcome: PublishOutcome): AttemptResult {
  if ('confirmed' in outcome) return { result: 'success', status: null };
  if ('returned' in outcome)
    return {
      result: 'retry',
      status: null,
      error: 'unroutable: no queue is bound for this routing key (basic.return)',
    };
  const { code } = outcome.error;
  const fix = TARGET_FIXES[code];
  if (fix) return { result: 'permanent', status: null, error: fix, flagTarget: true };
  const failure = classifyFailureCode(code);
  if (failure === 'ssrf_blocked' || failure === 'untrusted_certificate')
    return { result: 'permanent', status: null, error: `broker not dialled (${code})`, flagTarget: true };
  if (code === 'NACK')
    return { result: 'retry', status: null, error: 'the broker did not take the message (basic.nack)' };
  return { result: 'retry', status: null, error: `broker unavailable (${code})` };
}
