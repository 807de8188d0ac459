export type { AttemptResult, FieldError, NetworkFailure, OutboundRequest, ResponseSummary, SendOutcome, TargetKind, ValidationResult } from './kind';
export { createRegistry } from './registry';
export type { TargetRegistry } from './registry';
export { webhookKind } from './kinds/webhook';
export type { WebhookConfig } from './kinds/webhook';
export { embedChatKind, EMBED_CHAT_RETRY_SCHEDULE_MS } from './kinds/embed_chat';
export type { EmbedChatConfig } from './kinds/embed_chat';
export { blockChatKind, BLOCK_CHAT_RETRY_SCHEDULE_MS } from './kinds/block_chat';
export type { BlockChatConfig } from './kinds/block_chat';
export { sendRequest } from './http/send';
export type { SendOptions } from './http/send';
export { handleDelivery } from './delivery/handle';
export type { AttemptRecorder, DeliveryDeps, TargetLookup } from './delivery/handle';
export { createAttemptRecorder, createTargetLookup } from './delivery/adapters';
export { createDeliverer } from './delivery/worker';
export type { DelivererOptions } from './delivery/worker';
import { createRegistry } from './registry';
import { webhookKind } from './kinds/webhook';
import { embedChatKind } from './kinds/embed_chat';
import { blockChatKind } from './kinds/block_chat';

/** Every target kind Relay ships; adding a kind adds one entry here. */
export const defaultRegistry = createRegistry([webhookKind, embedChatKind, blockChatKind]);
