// The target-kind model: the interface every kind implements, the kinds Relay ships, their
// catalog and registry, the SSRF-guarded sender, and the retry schedules a target may follow.
// Delivering (the queue consumer, retries, redrive) is @relay/deliverer's.
export { TargetConfigError } from './kind';
export type { AttemptResult, NetworkFailure, OutboundRequest, ResponseSummary, SendOutcome, TargetKind } from './kind';
export { createRegistry } from './registry';
export type { TargetRegistry } from './registry';
export { channelOf, createDefaultRegistry } from './catalog';
export type { KindDeps } from './catalog';
export { ALWAYS_REMOVED, createWebhookKind } from './kinds/webhook';
export type { SecretSealer, WebhookConfig } from './kinds/webhook';
export { embedChatKind, EMBED_CHAT_RETRY_SCHEDULE_MS } from './kinds/embed_chat';
export type { EmbedChatConfig } from './kinds/embed_chat';
export { blockChatKind, BLOCK_CHAT_RETRY_SCHEDULE_MS } from './kinds/block_chat';
export type { BlockChatConfig } from './kinds/block_chat';
export { createSender, sendRequest } from './http/send';
export type { SenderOptions, SendOptions } from './http/send';
export { createSsrfAgents, SsrfBlockedError } from './ssrf';
export { defaultRetrySchedule, retryScheduleOf, RETRY_SCHEDULE_LIMITS, validateRetrySchedule, WEBHOOK_RETRY_SCHEDULE_MS } from './schedule';
