import type { DeliveryMessageV1 } from '@relay/contracts';
import type { KindInfo, OutboundRequest, SecretSealer, TargetKind } from '../../kind';
import { describedConfig } from '../../describe/kind-config';
import { isPlaintextChatUrl, openChatUrl, sealChatUrl } from '../chat-config';
import { readPayload } from '../template';
import { classifyEmbedChat } from './classify';
import { embedChatDescription } from './config';
import type { EmbedChatConfig } from './config';
import { embedChatMessage } from './message';

export type { EmbedChatConfig } from './config';
export { ACCEPTED_PREFIXES as EMBED_CHAT_URL_PREFIXES } from './config';

/**
 * Spec "Events": embed-style chat deliveries retry "on a fast schedule". Delays between
 * attempts, in ms (1 s, 2 s, 5 s, 15 s, 30 s: five retries within about a minute). When
 * classify reports a longer `retryAfterMs` (Discord's `retry_after`), that delay should win.
 */
export const EMBED_CHAT_RETRY_SCHEDULE_MS: readonly number[] = [1_000, 2_000, 5_000, 15_000, 30_000];

export const embedChatInfo: KindInfo = {
  kind: 'embed_chat',
  channel: 'chat',
  defaultRetryScheduleMs: EMBED_CHAT_RETRY_SCHEDULE_MS,
  description: embedChatDescription,
  defaultLimits: { rate: 30, per: 'minute', max_in_flight: null },
  resendable: true,
};

/**
 * `?wait=true` makes Discord answer 200 with the saved message; without it a 204 can hide a
 * message that was never saved. An existing `thread_id` stays.
 */
function buildRequest(config: EmbedChatConfig, d: DeliveryMessageV1, secrets: SecretSealer): OutboundRequest {
  const url = new URL(openChatUrl(config.url, secrets));
  url.searchParams.set('wait', 'true');
  const body = embedChatMessage(config, readPayload(d.payload));
  return {
    url: url.toString(),
    headers: { 'content-type': 'application/json', 'user-agent': 'Relay-Chat/1' },
    body: Buffer.from(JSON.stringify(body), 'utf8'),
  };
}

export interface ChatKindDeps {
  /** seals the webhook URL at save time, opens it per attempt (`createSecretBox(SECRETS_KEYS)`) */
  secrets: SecretSealer;
}

/** Embed-style chat webhook (spec "Relay target"; Discord execute webhook). Its URL is stored sealed. */
export function createEmbedChatKind(deps: ChatKindDeps): TargetKind<EmbedChatConfig> {
  return {
    ...embedChatInfo,
    ...describedConfig<EmbedChatConfig>(embedChatDescription, deps.secrets),
    buildRequest: (config, d) => buildRequest(config, d, deps.secrets),
    // rows stored before chat URLs were sealed
    sealPlaintext: (config) =>
      isPlaintextChatUrl(config.url) ? { ...config, url: sealChatUrl(config.url, deps.secrets) } : null,
    classify: classifyEmbedChat,
  };
}
