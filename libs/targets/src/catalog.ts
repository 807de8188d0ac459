import type { DeliveryChannel } from '@relay/contracts';
import type { AnyTargetKind, KindInfo } from './kind';
import { amqpExchangeInfo, createAmqpExchangeKind } from './kinds/amqp_exchange';
import { blockChatInfo, createBlockChatKind } from './kinds/block_chat';
import { cliInfo, createCliKind } from './kinds/cli';
import type { CliLink } from './kinds/cli';
import { createEmailKind, emailInfo } from './kinds/email';
import { createKafkaKind, kafkaInfo } from './kinds/kafka';
import type { MailRelay } from './kinds/email';
import { createRedisStreamKind, redisStreamInfo } from './kinds/redis_stream';
import { createNatsJetStreamKind, natsJetStreamInfo } from './kinds/nats_jetstream';
import { createSqsKind, sqsInfo } from './kinds/sqs';
import { createS3Kind, s3Info } from './kinds/s3';
import { createSpreadsheetKind, spreadsheetInfo } from './kinds/spreadsheet';
import type { GoogleAccess } from './kinds/spreadsheet';
import { createEmbedChatKind, embedChatInfo } from './kinds/embed_chat';
import { createTeamsKind, teamsInfo } from './kinds/teams';
import { createTelegramKind, telegramInfo } from './kinds/telegram';
import { createMqttKind, mqttInfo } from './kinds/mqtt';
import { createWebhookKind, webhookInfo } from './kinds/webhook';
import type { SecretSealer } from './kind';
import { createRegistry } from './registry';
import type { TargetRegistry } from './registry';
import type { AmqpLink } from './transports/amqp';
import type { KafkaLink } from './transports/kafka';
import type { RedisStreamsLink } from './transports/redis';
import type { MqttLink } from './transports/mqtt';
import type { NatsLink } from './transports/nats';
import type { SqsLink } from './transports/sqs';
import type { S3Link } from './transports/s3';

/** What kinds may need to be built: the secret box for credentials stored with a target (webhook secrets, chat URLs). */
interface KindDeps {
  secrets: SecretSealer;
  /** the operator's mail relay; only the outputs deliverer has one */
  mail?: MailRelay;
  /** the guarded sender to Google; only the outputs deliverer has one */
  google?: GoogleAccess;
  /** the broker route to `relay listen` sessions; only the outputs deliverer has one */
  cli?: CliLink;
  /** pooled clients to the Redis servers of Redis Streams targets; only the outputs deliverer has them */
  redis?: RedisStreamsLink;
  /** pooled connections to the brokers of RabbitMQ exchange targets; only the outputs deliverer has them */
  amqp?: AmqpLink;
  /** pooled connections to the brokers of MQTT targets; only the outputs deliverer has them */
  mqtt?: MqttLink;
  /** pooled connections to the NATS servers of JetStream targets; only the outputs deliverer has them */
  nats?: NatsLink;
  /** pooled clients to the queues of Amazon SQS targets; only the outputs deliverer has them */
  sqs?: SqsLink;
  /** pooled clients to the buckets of S3 targets; only the outputs deliverer has them */
  s3?: S3Link;
  /** pooled idempotent producers to the clusters of Kafka targets; only the outputs deliverer has them */
  kafka?: KafkaLink;
}

/** One line of the catalog: what is known of a kind without building it, and how to build it. */
export interface CatalogEntry extends KindInfo {
  create(deps: KindDeps): AnyTargetKind;
}

/**
 * The kinds a deployment knows. Everything that depends on the set of kinds reads it from here:
 * the gateway routes by `channelOf`, the management API and the deliverers build their registry
 * with `createRegistry`, and each deliverer's default retry tiers are derived from
 * `schedulesOn(channel)` — so a kind with a schedule of its own needs no other edit.
 */
export interface Catalog {
  readonly entries: readonly CatalogEntry[];
  /** the delivery queue a kind's deliveries travel on; undefined for an unknown kind */
  channelOf(kind: string): DeliveryChannel | undefined;
  /** the default retry schedules of the kinds on `channel` (the delays its tiers must serve) */
  schedulesOn(channel: DeliveryChannel): (readonly number[])[];
  /** builds every kind; fails at start-up if a kind does not match its entry */
  createRegistry(deps: KindDeps): TargetRegistry;
}

export function createCatalog(entries: readonly CatalogEntry[]): Catalog {
  const byKind = new Map(entries.map((e) => [e.kind, e]));
  if (byKind.size !== entries.length) throw new Error('duplicate target kind in the catalog');
  return {
    entries,
    channelOf: (kind) => byKind.get(kind)?.channel,
    schedulesOn: (channel) => entries.filter((e) => e.channel === channel).map((e) => e.defaultRetryScheduleMs),
    createRegistry: (deps) =>
      createRegistry(
        entries.map((entry) => {
          const kind = entry.create(deps);
          const matches =
            kind.kind === entry.kind &&
            kind.channel === entry.channel &&
            kind.defaultRetryScheduleMs === entry.defaultRetryScheduleMs &&
            kind.resendable === entry.resendable &&
            kind.description === entry.description;
          if (!matches) throw new Error(`catalog entry ${entry.kind} does not match its kind`);
          return kind;
        }),
      ),
  };
}

/**
 * Every target kind Relay ships — adding a kind adds one line here. An entry's info is known
 * without building the kind, so the gateway routes deliveries without holding any secret.
 */
export const CATALOG: Catalog = createCatalog([
  { ...webhookInfo, create: (deps) => createWebhookKind({ secrets: deps.secrets }) },
  { ...embedChatInfo, create: (deps) => createEmbedChatKind({ secrets: deps.secrets }) },
  { ...blockChatInfo, create: (deps) => createBlockChatKind({ secrets: deps.secrets }) },
  {
    ...emailInfo,
    create: (deps) => createEmailKind({ secrets: deps.secrets, ...(deps.mail ? { mail: deps.mail } : {}) }),
  },
  {
    ...spreadsheetInfo,
    create: (deps) => createSpreadsheetKind({ secrets: deps.secrets, ...(deps.google ? { google: deps.google } : {}) }),
  },
  { ...telegramInfo, create: (deps) => createTelegramKind({ secrets: deps.secrets }) },
  { ...teamsInfo, create: (deps) => createTeamsKind({ secrets: deps.secrets }) },
  { ...cliInfo, create: (deps) => createCliKind({ secrets: deps.secrets, ...(deps.cli ? { cli: deps.cli } : {}) }) },
  {
    ...redisStreamInfo,
    create: (deps) => createRedisStreamKind({ secrets: deps.secrets, ...(deps.redis ? { redis: deps.redis } : {}) }),
  },
  {
    ...amqpExchangeInfo,
    create: (deps) => createAmqpExchangeKind({ secrets: deps.secrets, ...(deps.amqp ? { amqp: deps.amqp } : {}) }),
  },
  {
    ...mqttInfo,
    create: (deps) => createMqttKind({ secrets: deps.secrets, ...(deps.mqtt ? { mqtt: deps.mqtt } : {}) }),
  },
  {
    ...natsJetStreamInfo,
    create: (deps) => createNatsJetStreamKind({ secrets: deps.secrets, ...(deps.nats ? { nats: deps.nats } : {}) }),
  },
  { ...sqsInfo, create: (deps) => createSqsKind({ secrets: deps.secrets, ...(deps.sqs ? { sqs: deps.sqs } : {}) }) },
  { ...s3Info, create: (deps) => createS3Kind({ secrets: deps.secrets, ...(deps.s3 ? { s3: deps.s3 } : {}) }) },
  {
    ...kafkaInfo,
    create: (deps) => createKafkaKind({ secrets: deps.secrets, ...(deps.kafka ? { kafka: deps.kafka } : {}) }),
  },
]);

export function createDefaultRegistry(deps: KindDeps): TargetRegistry {
  return CATALOG.createRegistry(deps);
}

/** The delivery queue a kind's deliveries travel on; undefined for an unknown kind. */
export function channelOf(kind: string): DeliveryChannel | undefined {
  return CATALOG.channelOf(kind);
}
