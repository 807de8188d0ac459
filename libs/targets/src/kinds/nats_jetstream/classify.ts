import { classifyFailureCode } from '../../http/failures';
import type { AttemptResult } from '../../kind';
import type { NatsPublishOutcome } from '../../transports/nats';
import { safeErrorText } from '../template';

/**
 * Answers the same target gets again until its operator changes something: the credentials,
 * the user's permissions, the streams (which Relay never declares), the server's TLS. Codes
 * `JS_<n>` are the server's JetStream API error codes (nats-server `server/errors.json`).
 */
const TARGET_FIXES: Readonly<Record<string, string>> = {
  AUTHORIZATION_VIOLATION:
    'the server refused the credentials (Authorization Violation): check the authentication settings',
  AUTHENTICATION_EXPIRED: 'the server refused expired credentials (User Authentication Expired): renew them',
  PERMISSIONS_VIOLATION:
    'the user may not publish to this subject or subscribe to its reply inbox (Permissions Violation): grant it publish on the subject and subscribe on _INBOX.>',
  NO_RESPONDERS:
    'no stream captures this subject (no responders): add the subject to a stream, or change the subject template',
  TLS_UNAVAILABLE: 'the server does not offer TLS: use nats:// URLs, or enable TLS on the server',
  JS_10039: 'JetStream is not enabled for the account (10039): enable it, or use another account',
  JS_10076: 'JetStream is not enabled on the server (10076)',
  JS_10059: 'the stream was not found (10059): create it, or change the subject template',
  JS_10060: 'the subject belongs to another stream than expected (10060)',
  JS_10109: 'the stream is sealed and takes no messages (10109)',
};

/** Answers about this message only: the next delivery may fit; the target is not flagged. */
const MESSAGE_PROBLEMS: Readonly<Record<string, string>> = {
  JS_10054: 'the message is larger than the stream’s max_msg_size (10054)',
  JS_10097: 'the headers are larger than the server allows (10097)',
  MAX_PAYLOAD: 'the message is larger than the server’s max_payload',
};

/**
 * How one publish ended (docs/targets-queues.md "NATS JetStream"):
 * - a PubAck → success; `duplicate: true` too: the stream already holds this delivery id from
 *   an earlier attempt whose ack was lost;
 * - a refusal in TARGET_FIXES, another JetStream API error under 500, an SSRF-refused address
 *   or an untrusted certificate → permanent, the target flagged with the reason;
 * - a message over a size limit → permanent for this delivery, the target not flagged;
 * - connections refused or closed, timeouts, JetStream API errors of 500 and up (10008 system
 *   temporarily unavailable, 10077 store failed: a full stream with discard new, 10023
 *   insufficient resources) and 10158 (the same msg id in process) → retry.
 */
export function classifyNatsPublish(outcome: NatsPublishOutcome): AttemptResult {
  if ('ack' in outcome) return { result: 'success', status: null };
  const { code, message, status } = outcome.error;
  const fix = TARGET_FIXES[code];
  if (fix) return { result: 'permanent', status: null, error: fix, flagTarget: true };
  const tooLarge = MESSAGE_PROBLEMS[code];
  if (tooLarge) return { result: 'permanent', status: null, error: tooLarge, flagTarget: false };
  if (code.startsWith('JS_')) {
    // the server's own description: it never holds a credential
    const error = `JetStream refused the publish (${code.slice(3)}): ${safeErrorText(message)}`;
    if (status !== undefined && status < 500 && code !== 'JS_10158')
      return { result: 'permanent', status: null, error, flagTarget: true };
    return { result: 'retry', status: null, error };
  }
  const failure = classifyFailureCode(code);
  if (failure === 'ssrf_blocked' || failure === 'untrusted_certificate')
    return { result: 'permanent', status: null, error: `NATS server not dialled (${code})`, flagTarget: true };
  return { result: 'retry', status: null, error: `NATS server unavailable (${safeErrorText(code, 40)})` };
}
