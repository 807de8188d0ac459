import { randomUUID } from 'node:crypto';
import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, TargetKind } from '../../kind';
import { classifyWebhookOutcome } from './classify';
import { TargetConfigError } from './config';
import type { SecretSealer, WebhookConfig } from './config';
import { webhookDescription } from './description';
import { buildWebhookRequest } from './request';

export { ALWAYS_REMOVED } from './headers';
export { REDACTED } from '../../describe/field';
export { TEMPLATE_VARIABLES } from './template';
export { TargetConfigError };
export type { CustomHeader, ForwardHeaders, SecretSealer, WebhookAuth, WebhookConfig, WebhookSigning } from './config';
export { classifyWebhookOutcome } from './classify';

export interface WebhookKindDeps {
  /** seals secrets at save time, opens them per attempt (`createSecretBox(SECRETS_KEYS)`) */
  secrets: SecretSealer;
  /** for {{uuid}}; default crypto.randomUUID */
  uuid?: () => string;
  /** for webhook-timestamp; default the clock */
  now?: () => Date;
}

/**
 * The webhook schedule "immediate, 5 s, 30 s, 2 m, 10 m, 30 m, 1 h, 3 h, 6 h, 12 h":
 * the first attempt is the immediate one, then nine retries — ten attempts over about 22 h 43 m.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000,
];

export const webhookInfo: KindInfo = {
  kind: 'webhook',
  channel: 'webhook',
  defaultRetryScheduleMs: WEBHOOK_RETRY_SCHEDULE_MS,
  description: webhookDescription,
  resendable: true,
};

/** Generic webhook URL target (spec "Relay target" → Webhook URL). */
export function createWebhookKind(deps: WebhookKindDeps): TargetKind<WebhookConfig> {
  const requestDeps = { secrets: deps.secrets, uuid: deps.uuid ?? randomUUID, now: deps.now ?? (() => new Date()) };
  return {
    ...webhookInfo,
    ...describedConfig<WebhookConfig>(webhookDescription, deps.secrets),
    buildRequest: (config, delivery) => buildWebhookRequest(config, delivery, requestDeps),
    classify: (outcome) => classifyWebhookOutcome(outcome),
  };
}
