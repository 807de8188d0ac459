import { fieldPathProblem } from '@relay/endpoints';
import type { Validation } from '@relay/contracts';
import type { CheckContext, Fields, KindDescription } from '../../describe/field';
import { checkDescribed } from '../../describe/validate';

/** The SASL mechanisms the client speaks (kafkajs names). */
export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** An Apache Kafka topic target's settings (docs/targets-queues.md "Apache Kafka"). */
export interface KafkaConfig {
  /** bootstrap brokers, `host:port` each; the cluster's own list comes from their metadata */
  brokers: string[];
  topic: string;
  /** a dotted path into the JSON payload whose value is the record key; '' = no key */
  key_path: string;
  /** the password is sealed at rest */
  sasl: { mechanism: 'none' } | { mechanism: KafkaSaslMechanism; username: string; password: string };
  tls: boolean;
}

export const MAX_BROKERS = 16;
/** Kafka's topic name rule (Topic.validate): 1 to 249 of these, and not `.` or `..`. */
const TOPIC = /^[a-zA-Z0-9._-]{1,249}$/;
/** A host name, an IPv4 address or a bracketed IPv6 address, then the port. */
const BROKER = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?):(\d{1,5})$/;

function checkBroker(value: string, ctx: CheckContext): undefined {
  const m = BROKER.exec(value);
  const port = m ? Number(m[2]) : 0;
  if (!m || port < 1 || port > 65535)
    ctx.fail('each broker must be host:port, e.g. kafka-1.example.com:9093 (an IPv6 address in brackets)');
  return undefined;
}

function checkBrokers(value: string[], ctx: CheckContext): undefined {
  if (value.length === 0) ctx.fail('brokers must list at least one host:port');
  return undefined;
}

function checkTopic(value: string, ctx: CheckContext): undefined {
  if (value === '.' || value === '..') ctx.fail('topic must not be "." or ".."');
  return undefined;
}

function checkKeyPath(value: string, ctx: CheckContext): undefined {
  const problem = value === '' ? null : fieldPathProblem(value);
  if (problem !== null) ctx.fail(`key_path ${problem}`);
  return undefined;
}

const credentials: Fields = {
  username: {
    type: 'string',
    label: 'User name',
    required: true,
    minLength: 1,
    maxLength: 512,
    message: 'username is required',
  },
  password: {
    type: 'string',
    label: 'Password',
    required: true,
    credential: true,
    minLength: 1,
    maxLength: 1024,
    help: 'a secret: stored sealed, shown as set, never returned',
    message: 'password is required',
  },
};

/** Described once (docs/adding-a-target-kind.md). */
export const kafkaDescription: KindDescription = {
  label: 'Apache Kafka topic',
  help: 'Each delivery produced to a Kafka topic by an idempotent producer (acks=all), its delivery id a record header; docs/targets-queues.md.',
  fields: {
    brokers: {
      type: 'list',
      label: 'Bootstrap brokers',
      help: `host:port, at most ${MAX_BROKERS}; the client finds the rest of the cluster from them`,
      required: true,
      maxItems: MAX_BROKERS,
      maxItemsMessage: 'at most {max} brokers (got {got})',
      message: 'brokers must be a list of host:port',
      requiredMessage: 'brokers must list at least one host:port',
      items: {
        type: 'string',
        label: 'Broker',
        required: true,
        trim: true,
        example: 'kafka-1.example.com:9093',
        check: checkBroker,
      },
      check: checkBrokers,
    },
    topic: {
      type: 'string',
      label: 'Topic',
      required: true,
      trim: true,
      pattern: TOPIC.source,
      example: 'webhooks',
      help: 'a topic that exists (Relay does not create it unless the cluster auto-creates topics)',
      message: 'topic must be 1 to 249 letters, digits or ._-',
      check: checkTopic,
    },
    key_path: {
      type: 'string',
      label: 'Record key path (optional)',
      default: '',
      trim: true,
      maxLength: 512,
      example: 'customer.id',
      help: "a dotted path into the JSON payload whose value is each record's key; empty or absent in the payload = no key",
      check: checkKeyPath,
    },
    sasl: {
      type: 'variant',
      label: 'SASL authentication',
      tag: 'mechanism',
      default: { mechanism: 'none' },
      message:
        'sasl must be {mechanism: "none"} or {mechanism: "plain" | "scram-sha-256" | "scram-sha-512", username, password}',
      variants: [
        { value: 'none', label: 'None', fields: {} },
        { value: 'plain', label: 'PLAIN', fields: credentials },
        { value: 'scram-sha-256', label: 'SCRAM-SHA-256', fields: credentials },
        { value: 'scram-sha-512', label: 'SCRAM-SHA-512', fields: credentials },
      ],
    },
    tls: {
      type: 'boolean',
      label: 'TLS',
      default: false,
      help: "when on, the brokers' certificates are verified against their host names",
    },
  },
};

/** Save-time checks without sealing (tests of the description). */
export function validateKafkaConfig(input: unknown): Validation<KafkaConfig> {
  return checkDescribed(kafkaDescription, input) as Validation<KafkaConfig>;
}
