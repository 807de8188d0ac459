import type { Validation } from '@relay/contracts';
import type { CheckContext, KindDescription } from '../../describe/field';
import { checkDescribed } from '../../describe/validate';
import type { MqttProtocolVersion } from '../../transports/mqtt';
import { checkServerUrl } from '../server-url';

/** An MQTT topic target's settings (docs/targets-queues.md "MQTT"). */
export interface MqttConfig {
  /** `mqtt://` or `mqtts://` (TLS) with user and password; sealed at rest */
  url: string;
  /** a template (kinds/template.ts `{{path}}`) rendered against the payload */
  topic: string;
  /** 4 = MQTT 3.1.1, 5 = MQTT 5.0 */
  protocol_version: MqttProtocolVersion;
}

/** MQTT strings carry a two-byte length (3.1.1 §1.5.3, 5.0 §1.5.4): a topic name is at most 65,535 bytes. */
export const MAX_TOPIC_BYTES = 65_535;

const TAG = /\{\{[^{}]*\}\}/g;

/**
 * Why `topic` cannot be a PUBLISH topic name, or null (MQTT 5.0 §4.7: no wildcards `+` `#` in a
 * topic name, at least one character, no U+0000, UTF-8 of at most 65,535 bytes; §4.7.2: names
 * starting with `$` are the broker's own, such as `$SYS`).
 */
export function topicProblem(topic: string): string | null {
  if (topic === '') return 'is empty';
  if (/[+#]/.test(topic)) return 'contains a wildcard (+ or #), which only subscriptions may use';
  if (topic.includes('\u0000')) return 'contains U+0000';
  if (topic.startsWith('$')) return 'starts with $, which names the broker’s own topics';
  if (Buffer.from(topic, 'utf8').toString('utf8') !== topic) return 'is not valid UTF-8 (a lone surrogate)';
  if (Buffer.byteLength(topic) > MAX_TOPIC_BYTES) return `is over ${MAX_TOPIC_BYTES} bytes`;
  return null;
}

/**
 * The URL forms the client dials: a host and port, no path (MQTT has no virtual host), no query
 * (keep-alive and client id are Relay's). The message never echoes the URL, which holds the password.
 */
export function checkMqttUrl(value: string, ctx: CheckContext): undefined {
  return checkServerUrl(value, ctx, {
    schemes: ['mqtt:', 'mqtts:'],
    notAUrl: 'url must be an mqtt:// or mqtts:// URL, e.g. mqtts://user:password@broker.example.com:8883',
    pathProblem: (pathname) => (pathname === '' || pathname === '/' ? null : 'url must not have a path'),
  });
}

/**
 * The template's own text (its `{{…}}` tags stand for values checked once rendered) as a topic
 * name; its length is the template's, the most a rendered topic may be.
 */
function checkTopicTemplate(value: string, ctx: CheckContext): undefined {
  const literal = value.replace(TAG, 'x');
  const problem =
    topicProblem(literal) ?? (Buffer.byteLength(value) > MAX_TOPIC_BYTES ? `is over ${MAX_TOPIC_BYTES} bytes` : null);
  if (problem) ctx.fail(`topic ${problem}`);
  return undefined;
}

/** Described once (docs/adding-a-target-kind.md). QoS 1 and retain off are the kind's, not settings. */
export const mqttDescription: KindDescription = {
  label: 'MQTT topic (3.1.1, 5)',
  help: 'Each delivery published to a topic at QoS 1, acknowledged by the broker; with MQTT 5 its delivery and event ids as user properties; docs/targets-queues.md.',
  fields: {
    url: {
      type: 'string',
      label: 'Broker URL',
      required: true,
      credential: true,
      trim: true,
      maxLength: 2048,
      example: 'mqtts://relay:password@broker.example.com:8883',
      help: 'mqtt:// or mqtts:// (TLS) with user and password; a secret: stored sealed, never shown',
      check: checkMqttUrl,
    },
    topic: {
      type: 'string',
      label: 'Topic template',
      required: true,
      example: 'webhooks/{{type}}',
      help: '{{path.to.field}} over the payload; no + or #, not starting with $, at most 65,535 bytes',
      check: checkTopicTemplate,
    },
    protocol_version: {
      type: 'integer',
      label: 'MQTT protocol version',
      help: '5 = MQTT 5.0 (ids as user properties); 4 = MQTT 3.1.1 (the body only)',
      default: 5,
      minimum: 4,
      maximum: 5,
      message: 'protocol_version must be 4 (MQTT 3.1.1) or 5 (MQTT 5.0)',
    },
  },
};

export function validateMqttConfig(input: unknown): Validation<MqttConfig> {
  return checkDescribed(mqttDescription, input) as Validation<MqttConfig>;
}
