import { readFileSync } from 'node:fs';
import { ConfigError } from '@relay/config';
import {
  createAmqpLink,
  createKafkaLink,
  createMqttLink,
  createNatsLink,
  createRedisStreamsLink,
  createSender,
  createS3Link,
  createSqsLink,
  GOOGLE_RESPONSE_LIMIT_BYTES,
  smtpRelayOf,
} from '@relay/targets';
import type {
  AmqpLink,
  GoogleAccess,
  KafkaLink,
  MailRelay,
  MqttLink,
  NatsLink,
  RedisStreamsLink,
  S3Link,
  SqsLink,
} from '@relay/targets';
import type { Config } from './config';

/**
 * Queue and stream targets: one client per target's server URL, at most this many per process and
 * kind, closed after this long unused (a deleted or changed target's client among them).
 */
const POOLED_CLIENTS = 256;
const POOLED_IDLE_MS = 60_000;

/**
 * The outputs channel's transports, from config: the mail relay (when SMTP_HOST is set), the
 * guarded sender to Google, whose answers may be as large as the delivery-id column a retried
 * append reads (GOOGLE_RESPONSE_LIMIT_BYTES), and the pooled clients of Redis Streams and
 * RabbitMQ exchange, MQTT, NATS JetStream, SQS, S3 and Kafka targets, under the same SSRF guard and timeout as every delivery. Fails fast on an unusable setting.
 */
export function outputTransports(config: Config): {
  mail?: MailRelay;
  google: GoogleAccess;
  redis: RedisStreamsLink;
  amqp: AmqpLink;
  mqtt: MqttLink;
  nats: NatsLink;
  sqs: SqsLink;
  s3: S3Link;
  kafka: KafkaLink;
  /** closes the pooled clients of a target, or of an endpoint's targets (changed or deleted) */
  release(id: string): void;
  close(): void;
} {
  const problems: string[] = [];
  const pem = (file: string, name: string): string | undefined => {
    if (file === '') return undefined;
    try {
      return readFileSync(file, 'utf8');
    } catch {
      problems.push(`${name}: cannot read ${file}`);
      return undefined;
    }
  };
  const smtp = smtpRelayOf(config);
  problems.push(...smtp.problems);
  const googleCa = pem(config.googleCaFile, 'GOOGLE_CA_FILE');
  if (problems.length > 0) throw new ConfigError(problems);
  const transport = smtp.relay?.transport;
  const send = createSender({
    timeoutMs: config.requestTimeoutMs,
    allowCidrs: config.ssrfAllowCidrs,
    maxResponseBytes: GOOGLE_RESPONSE_LIMIT_BYTES,
    responseLimitBytes: GOOGLE_RESPONSE_LIMIT_BYTES,
    ...(googleCa ? { ca: googleCa } : {}),
  });
  const pooled = {
    allowCidrs: config.ssrfAllowCidrs,
    connectTimeoutMs: config.requestTimeoutMs,
    commandTimeoutMs: config.requestTimeoutMs,
    maxClients: POOLED_CLIENTS,
    idleMs: POOLED_IDLE_MS,
  };
  const redis = createRedisStreamsLink(pooled);
  const amqp = createAmqpLink(pooled);
  const mqtt = createMqttLink(pooled);
  const nats = createNatsLink(pooled);
  const sqs = createSqsLink(pooled);
  const s3 = createS3Link(pooled);
  const kafka = createKafkaLink(pooled);
  const links = [redis, amqp, mqtt, nats, sqs, s3, kafka];
  return {
    ...(smtp.relay ? { mail: smtp.relay } : {}),
    google: { send, tokenUrl: config.googleTokenUrl, sheetsApi: config.googleSheetsUrl },
    redis,
    amqp,
    mqtt,
    nats,
    sqs,
    s3,
    kafka,
    release: (id) => {
      for (const link of links) link.release(id);
    },
    close: () => {
      transport?.close();
      for (const link of links) link.close();
    },
  };
}
