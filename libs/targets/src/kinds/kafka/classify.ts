import { classifyFailureCode } from '../../http/failures';
import type { AttemptResult } from '../../kind';
import type { ProduceOutcome } from '../../transports/kafka';
import { safeErrorText } from '../template';

/**
 * Kafka protocol errors (the protocol guide's error codes) that the same target gets again until
 * its operator changes something: the credentials, the ACLs, the topic.
 */
const TARGET_FIXES: Readonly<Record<string, string>> = {
  SASL_AUTHENTICATION_FAILED:
    'the cluster refused the SASL credentials (SASL_AUTHENTICATION_FAILED): check the mechanism, user name and password',
  UNSUPPORTED_SASL_MECHANISM:
    "the brokers do not offer this SASL mechanism (UNSUPPORTED_SASL_MECHANISM): choose one the listener's sasl.enabled.mechanisms lists",
  ILLEGAL_SASL_STATE:
    'the listener does not expect SASL here (ILLEGAL_SASL_STATE): check the brokers, TLS and SASL settings',
  TOPIC_AUTHORIZATION_FAILED:
    'the user may not write to the topic (TOPIC_AUTHORIZATION_FAILED): grant it WRITE on the topic',
  CLUSTER_AUTHORIZATION_FAILED:
    'the user may not produce idempotently (CLUSTER_AUTHORIZATION_FAILED): grant it IDEMPOTENT_WRITE on the cluster',
  UNKNOWN_TOPIC_OR_PARTITION:
    'the topic does not exist and the cluster does not create topics (UNKNOWN_TOPIC_OR_PARTITION): create it, or change the topic',
  INVALID_TOPIC_EXCEPTION: 'the cluster refused the topic name (INVALID_TOPIC_EXCEPTION): change the topic',
};

/** Refusals of this one record (its size): the next delivery may fit, so the target is not flagged. */
const RECORD_REFUSALS = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD']);

/**
 * How one produce ended (docs/targets-queues.md "Apache Kafka"):
 * - written (acks=all) → success;
 * - an error in TARGET_FIXES, an SSRF-refused address or an untrusted certificate → permanent,
 *   the target flagged with the reason;
 * - the record refused for its size → permanent for this delivery only;
 * - anything else (NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE, REQUEST_TIMED_OUT,
 *   NOT_ENOUGH_REPLICAS, refused or closed connections) → retry on the target's schedule.
 */
export function classifyKafkaProduce(outcome: ProduceOutcome): AttemptResult {
  if ('offset' in outcome) return { result: 'success', status: null };
  const { code } = outcome.error;
  const fix = TARGET_FIXES[code];
  if (fix) return { result: 'permanent', status: null, error: fix, flagTarget: true };
  if (RECORD_REFUSALS.has(code))
    return {
      result: 'permanent',
      status: null,
      error: `the cluster refused this record (${code}): it is larger than the topic's max.message.bytes`,
      flagTarget: false,
    };
  const failure = classifyFailureCode(code);
  if (failure === 'ssrf_blocked' || failure === 'untrusted_certificate')
    return { result: 'permanent', status: null, error: `broker not dialled (${code})`, flagTarget: true };
  return { result: 'retry', status: null, error: `Kafka unavailable (${safeErrorText(code, 40)})` };
}
