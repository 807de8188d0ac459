import { classifyFailureCode } from '../../http/failures';
import type { AttemptResult } from '../../kind';
import type { MqttOutcome } from '../../transports/mqtt';

/**
 * CONNACK refusals (3.1.1 return codes §3.2.2.3, MQTT 5 reason codes §3.2.2.2) that the same
 * target gets again until its operator changes something: the credentials, the user's rights,
 * the protocol version, a broker that sends its clients elsewhere.
 */
const CONNECT_FIXES: Readonly<Record<number, string>> = {
  1: 'the broker does not speak MQTT 3.1.1 (CONNACK 1): choose protocol version 5',
  2: 'the broker refused the client identifier (CONNACK 2)',
  4: 'the broker refused the user name or password (CONNACK 4): check them in the URL',
  5: 'the broker refused the user (CONNACK 5, not authorized): check the user and password in the URL, and its rights',
  0x84: 'the broker does not speak MQTT 5 (CONNACK 0x84): choose protocol version 4 (3.1.1)',
  0x85: 'the broker refused the client identifier (CONNACK 0x85)',
  0x86: 'the broker refused the user name or password (CONNACK 0x86): check them in the URL',
  0x87: 'the broker refused the user (CONNACK 0x87, not authorized): check the user and password in the URL, and its rights',
  0x8a: 'the broker has banned this client (CONNACK 0x8A)',
  0x8c: 'the broker requires an authentication method Relay does not use (CONNACK 0x8C)',
  0x9c: 'the broker sends its clients to another server (CONNACK 0x9C): change the URL',
  0x9d: 'the broker has moved (CONNACK 0x9D): change the URL',
};

/** PUBACK (or DISCONNECT) reason codes (MQTT 5 §3.4.2.1, §3.14.2.1) a broker sends back while busy or over quota: a later attempt may pass. */
const PUBLISH_TRANSIENT = new Set([0x80, 0x83, 0x89, 0x8b, 0x91, 0x93, 0x96, 0x97, 0x98, 0x9f]);

/** PUBACK reason codes with the operator's fix named; any other code ≥ 0x80 not in PUBLISH_TRANSIENT is permanent too. */
const PUBLISH_FIXES: Readonly<Record<number, string>> = {
  0x87: 'the broker refused the publish (PUBACK 0x87, not authorized): grant the user publish rights on the topic',
  0x90: 'the broker refused the topic name (PUBACK 0x90, topic name invalid): change the topic',
  0x99: 'the broker refused the payload format (PUBACK 0x99)',
};

/**
 * Too large for this broker (0x95): the delivery fails, the target is not flagged, since the next
 * event may fit. The operator raises the broker's maximum packet size to take such payloads.
 */
const PACKET_TOO_LARGE = 0x95;

const hex = (rc: number): string => `0x${rc.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * How one publish ended (docs/targets-queues.md "MQTT"):
 * - PUBACK (success, or 0x10 no matching subscribers, which MQTT.js reports as success) → success;
 * - a CONNACK refusal in CONNECT_FIXES, a PUBACK (or DISCONNECT) reason ≥ 0x80 not in
 *   PUBLISH_TRANSIENT, an SSRF-refused address or an untrusted certificate → permanent, the
 *   target flagged; 0x95 packet too large → permanent for this delivery only;
 * - CONNACK 3 / 0x88 server unavailable, 0x89 busy, quota exceeded (0x97), a refused, reset or
 *   timed-out connection, no PUBACK in time → retry.
 */
export function classifyMqttPublish(outcome: MqttOutcome): AttemptResult {
  if ('acked' in outcome) return { result: 'success', status: null };
  const { stage, code, reasonCode } = outcome.error;
  if (reasonCode !== undefined && stage === 'connect') {
    const fix = CONNECT_FIXES[reasonCode];
    if (fix) return { result: 'permanent', status: null, error: fix, flagTarget: true };
    return {
      result: 'retry',
      status: null,
      error: `broker unavailable (CONNACK ${reasonCode < 6 ? reasonCode : hex(reasonCode)})`,
    };
  }
  if (reasonCode === PACKET_TOO_LARGE)
    return {
      result: 'permanent',
      status: null,
      error: 'the message is larger than the broker accepts (0x95, packet too large)',
      flagTarget: false,
    };
  if (reasonCode !== undefined && reasonCode >= 0x80 && !PUBLISH_TRANSIENT.has(reasonCode))
    return {
      result: 'permanent',
      status: null,
      error: PUBLISH_FIXES[reasonCode] ?? `the broker refused the publish (${hex(reasonCode)})`,
      flagTarget: true,
    };
  if (reasonCode !== undefined)
    return { result: 'retry', status: null, error: `the broker did not take the message (${hex(reasonCode)})` };
  const failure = classifyFailureCode(code);
  if (failure === 'ssrf_blocked' || failure === 'untrusted_certificate')
    return { result: 'permanent', status: null, error: `broker not dialled (${code})`, flagTarget: true };
  return { result: 'retry', status: null, error: `broker unavailable (${code})` };
}
