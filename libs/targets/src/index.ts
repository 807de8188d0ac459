// The target-kind model: the interface every kind implements, the kinds Relay ships, their
// catalog and registry, the SSRF-guarded sender, and the retry schedules a target may follow.
// Delivering (the queue consumer, retries, redrive) is services/deliverer's; the per-target
// limits and breaker are @relay/target-gate's.
export { PayloadError, TargetConfigError } from './kind';
export type {
  AnyTargetKind,
  AttemptResult,
  KindConfigHandling,
  KindInfo,
  NetworkFailure,
  OutboundRequest,
  ResponseSummary,
  SecretSealer,
  SendOutcome,
  TargetKind,
  TransportKind,
} from './kind';
export { createRegistry } from './registry';
export { REDACTED } from './describe/field';
export type {
  BooleanField,
  CheckContext,
  EnumField,
  Field,
  FieldCheck,
  Fields,
  IntegerField,
  KindDescription,
  ListField,
  NumberField,
  ObjectField,
  TextField,
  VariantField,
} from './describe/field';
export { checkDescribed, sealCredentials, validateDescribed } from './describe/validate';
export { viewDescribed } from './describe/view';
export { describedConfig } from './describe/kind-config';
export {
  checkTargetName,
  TARGET_FIELDS,
  validateBreakerSettings,
  validateRetrySchedule,
  validateRouting,
  validateTargetLimits,
  withTargetFields,
} from './describe/target-fields';
export { BREAKER_DEFAULTS } from './describe/limits';
export type { BreakerSettings, TargetLimits } from './describe/limits';
export { configInputSchema, configViewSchema, fieldInputSchema, fieldViewSchema } from './describe/schema';
export type { JsonSchema } from './describe/schema';
export { wireDescription, wireFields } from './describe/wire';
export type { WireField } from './describe/wire';
export type { TargetRegistry } from './registry';
export { CATALOG, channelOf, createCatalog, createDefaultRegistry } from './catalog';
export type { Catalog, CatalogEntry, KindDeps } from './catalog';
export { ALWAYS_REMOVED, createWebhookKind, WEBHOOK_RETRY_SCHEDULE_MS } from './kinds/webhook';
export type { WebhookConfig } from './kinds/webhook';
export { createEmbedChatKind, EMBED_CHAT_RETRY_SCHEDULE_MS } from './kinds/embed_chat';
export type { ChatKindDeps, EmbedChatConfig } from './kinds/embed_chat';
export { createBlockChatKind, BLOCK_CHAT_RETRY_SCHEDULE_MS } from './kinds/block_chat';
export type { BlockChatConfig } from './kinds/block_chat';
export { createSender, sendRequest } from './http/send';
export type { HttpRequest, SenderOptions, SendOptions } from './http/send';
export { createEmailKind, EMAIL_RETRY_SCHEDULE_MS } from './kinds/email';
export type { EmailConfig, MailRelay } from './kinds/email';
export { createSpreadsheetKind, SPREADSHEET_RETRY_SCHEDULE_MS } from './kinds/spreadsheet';
export type { GoogleAccess, SpreadsheetConfig } from './kinds/spreadsheet';
export { createSmtpTransport, SMTP_DEFAULTS } from './transports/smtp';
export type { SmtpRelayConfig, SmtpSecurity, SmtpTransport } from './transports/smtp';
export { GOOGLE_RESPONSE_LIMIT_BYTES, GOOGLE_TOKEN_URL, SHEETS_API } from './transports/google';
export { createSsrfAgents, parseHostRoutes, SsrfBlockedError } from './ssrf';
export type { HostRoutes } from './ssrf';
export { retryScheduleOf, RETRY_SCHEDULE_LIMITS } from './schedule';
export {
  classifyCliOutcome,
  CLI_ATTEMPT_TIMEOUT_MS,
  CLI_RETRY_SCHEDULE_MS,
  cliForward,
  createCliKind,
  DEFAULT_IN_FLIGHT,
  LOCAL_ANSWER_BODY_BYTES,
  LOCAL_TIMEOUT_MS,
  MAX_ACK_FRAME_BYTES,
  MAX_FORWARD_BODY_BYTES,
  MAX_IN_FLIGHT,
  MAX_SESSIONS_PER_ENDPOINT,
  MAX_WAITING_PER_SESSION,
  SESSION_HEARTBEAT_MS,
  SESSION_LEASE_MS,
} from './kinds/cli';
export type { CliConfig, CliLink, CliNoAnswer } from './kinds/cli';
