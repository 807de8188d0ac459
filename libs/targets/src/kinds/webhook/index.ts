import { randomUUID } from 'node:crypto';
import type { TargetKind } from '../../kind';
import { classifyWebhookOutcome } from './classify';
import { TargetConfigError } from './config';
import type { SecretSealer, WebhookConfig } from './config';
import { publicWebhookConfig } from './public';
import { buildWebhookRequest } from './request';
import { validateWebhookConfig } from './validate';

export { ALWAYS_REMOVED } from './headers';
export { REDACTED } from './public';
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

/** Generic webhook URL target (spec "Relay target" → Webhook URL). */
export function createWebhookKind(deps: WebhookKindDeps): TargetKind<WebhookConfig> {
  const requestDeps = { secrets: deps.secrets, uuid: deps.uuid ?? randomUUID, now: deps.now ?? (() => new Date()) };
  return {
    kind: 'webhook',
    channel: 'webhook',
    validateConfig: (input) => validateWebhookConfig(input, deps.secrets),
    publicConfig: publicWebhookConfig,
    buildRequest: (config, delivery) => buildWebhookRequest(config, delivery, requestDeps),
    classify: (outcome) => classifyWebhookOutcome(outcome),
  };
}
