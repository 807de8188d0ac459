import { readFileSync } from 'node:fs';
import { ConfigError } from '@relay/config';
import {
  createAmqpLink,
  createKafkaLink,
  createMqttLink,
  createNatsLink,
  createRedisStreamsLink,
  createSender,
  createSmtpTransport,
  createS3Link,
  createSqsLink,
  GOOGLE_RESPONSE_LIMIT_BYTES,
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
  SmtpSecurity,
  SqsLink,
} from '@relay/targets';
import type { Config } from './config';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

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
  if (config.smtpHost !== '' && !/^[^@\s]+@[^@\s]+$/.test(config.smtpFrom))
    problems.push('SMTP_FROM: an address is required when SMTP_HOST is set');
  if ((config.smtpUsername === '') !== (config.smtpPassword === ''))
    problems.push('SMTP_USERNAME and SMTP_PASSWORD go together');
  // mail (and AUTH) in clear is for a catcher on this machine only, never across a network
  if (config.smtpHost !== '' && config.smtpSecurity === 'none' && !LOOPBACK.has(config.smtpHost))
    problems.push('SMTP_SECURITY=none is accepted only for a relay on loopback (127.0.0.1, ::1, localhost)');
  const smtpCa = pem(config.smtpCaFile, 'SMTP_CA_FILE');
  const googleCa = pem(config.googleCaFile, 'GOOGLE_CA_FILE');
  if (problems.length > 0) throw new ConfigError(problems);

  const transport =
    config.smtpHost === ''
      ? undefined
      : createSmtpTransport({
          host: config.smtpHost,
          port: config.smtpPort,
          security: config.smtpSecurity as SmtpSecurity,
          ...(config.smtpUsername !== '' ? { username: config.smtpUsername, password: config.smtpPassword } : {}),
          from: config.smtpFrom,
          ...(smtpCa ? { ca: smtpCa } : {}),
          connectionTimeoutMs: config.smtpConnectTimeoutMs,
          greetingTimeoutMs: config.smtpConnectTimeoutMs,
          socketTimeoutMs: config.smtpSocketTimeoutMs,
          maxConnections: config.smtpMaxConnections,
        });
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
    ...(transport ? { mail: { transport, from: config.smtpFrom } } : {}),
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
