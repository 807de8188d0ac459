// The target-kind model: the interface every kind implements, the kinds Relay ships, their
// catalog and registry, the SSRF-guarded sender, and the retry schedules a target may follow.
// Delivering (the queue consumer, retries, redrive) is services/deliverer's; the per-target
// limits and breaker are @relay/target-gate's.
export { PayloadError, TargetConfigError } from './kind';
export type {
  AnyTargetKind,
  AttemptResult,
  KindInfo,
  OutboundRequest,
  ResponseSummary,
  SendOutcome,
  TargetKind,
  TransportKind,
} from './kind';
export { createRegistry } from './registry';
export {
  checkTargetName,
  TARGET_FIELDS,
  validateBreakerSettings,
  validateOrdering,
  validateKeySource,
  validateRetrySchedule,
  validateRouting,
  validateTargetLimits,
  withTargetFields,
} from './describe/target-fields';
export { BREAKER_DEFAULTS } from './describe/limits';
export { KEY_SOURCE_FIELD } from './describe/ordering-field';
export type { OrderingSettings } from './describe/ordering-field';
export type { BreakerSettings, TargetLimits } from './describe/limits';
export { configInputSchema, configViewSchema, fieldInputSchema, fieldViewSchema } from './describe/schema';
export { wireDescription, wireFields } from './describe/wire';
export type { TargetRegistry } from './registry';
export { CATALOG, channelOf, createCatalog, createDefaultRegistry } from './catalog';
export type { Catalog, CatalogEntry } from './catalog';
export { ALWAYS_REMOVED, createWebhookKind, WEBHOOK_RETRY_SCHEDULE_MS } from './kinds/webhook';
export type { WebhookConfig } from './kinds/webhook';
export { createEmbedChatKind } from './kinds/embed_chat';
export { createBlockChatKind } from './kinds/block_chat';
export { createSender, sendRequest } from './http/send';
export type { Sender } from './http/send';
export type { HttpRequest } from './http/send';
export { createEmailKind } from './kinds/email';
export type { MailRelay } from './kinds/email';
export { createSpreadsheetKind } from './kinds/spreadsheet';
export type { GoogleAccess } from './kinds/spreadsheet';
export { createSmtpTransport, SMTP_DEFAULTS, smtpRelayOf } from './transports/smtp';
export type { SmtpSecurity, SmtpSettings, SmtpTransport } from './transports/smtp';
export { GOOGLE_RESPONSE_LIMIT_BYTES, GOOGLE_TOKEN_URL, SHEETS_API } from './transports/google';
export { createSsrfAgents } from './ssrf';
export { createRedisStreamsLink } from './transports/redis';
export type { RedisStreamsLink } from './transports/redis';
export { createRedisStreamKind } from './kinds/redis_stream';
export { createAmqpLink } from './transports/amqp';
export type { AmqpLink } from './transports/amqp';
export { createAmqpExchangeKind } from './kinds/amqp_exchange';
export { createMqttLink } from './transports/mqtt';
export type { MqttLink } from './transports/mqtt';
export { createMqttKind } from './kinds/mqtt';
export { createNatsLink } from './transports/nats';
export type { NatsLink } from './transports/nats';
export { createNatsJetStreamKind } from './kinds/nats_jetstream';
export { createSqsLink } from './transports/sqs';
export type { SqsLink } from './transports/sqs';
export { createSqsKind } from './kinds/sqs';
export { createS3Link } from './transports/s3';
export type { S3Link } from './transports/s3';
export { createS3Kind } from './kinds/s3';
export { createKafkaLink } from './transports/kafka';
export type { KafkaLink } from './transports/kafka';
export { createKafkaKind } from './kinds/kafka';
export type { PooledLinkOptions } from './transports/pool';
export { retryScheduleOf, RETRY_SCHEDULE_LIMITS } from './schedule';
export {
  BACKLOG_MAX_AGE_MS,
  BACKLOG_MAX_DELIVERIES,
  BACKLOG_QUEUE_EXPIRES_MS,
  CLI_ATTEMPT_TIMEOUT_MS,
  CLI_BACKLOG,
  classifyCliOutcome,
  cliInfo,
  drainedAttempt,
  cliForward,
  CLI_RETRY_SCHEDULE_MS,
  DEFAULT_IN_FLIGHT,
  inMirrorSample,
  mirrorPercentOf,
  LOCAL_ANSWER_BODY_BYTES,
  MAX_ACK_FRAME_BYTES,
  MAX_FORWARD_BODY_BYTES,
  MAX_SESSIONS_PER_ENDPOINT,
  MAX_WAITING_PER_SESSION,
  SESSION_HEARTBEAT_MS,
  SESSION_LEASE_MS,
} from './kinds/cli';
export type { CliNoAnswer } from './kinds/cli';
