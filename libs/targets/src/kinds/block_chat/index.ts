import type { DeliveryMessageV1 } from '@relay/contracts';
import type { KindInfo, OutboundRequest, SecretSealer, TargetKind } from '../../kind';
import { describedConfig } from '../../describe/kind-config';
import { isPlaintextChatUrl, openChatUrl, sealChatUrl } from '../chat-config';
import type { ChatKindDeps } from '../embed_chat';
import { readPayload } from '../template';
import { classifyBlockChat } from './classify';
import { blockChatDescription } from './config';
import type { BlockChatConfig } from './config';
import { blockChatMessage } from './message';

export type { BlockChatConfig } from './config';
export { ACCEPTED_HOSTS as BLOCK_CHAT_URL_HOSTS } from './config';

/**
 * Delays between attempts, in ms. The spec sets no schedule for this kind; it shares the
 * embed-style kind's fast one (both ride the `chat` channel), which also stays near Slack's
 * one-message-per-second pace. A longer Retry-After from Slack should win.
 */
export const BLOCK_CHAT_RETRY_SCHEDULE_MS: readonly number[] = [1_000, 2_000, 5_000, 15_000, 30_000];

export const blockChatInfo: KindInfo = {
  kind: 'block_chat',
  channel: 'chat',
  defaultRetryScheduleMs: BLOCK_CHAT_RETRY_SCHEDULE_MS,
  description: blockChatDescription,
  defaultLimits: { rate: 1, per: 'second', max_in_flight: null },
  resendable: true,
};

function buildRequest(config: BlockChatConfig, d: DeliveryMessageV1, secrets: SecretSealer): OutboundRequest {
  const url = openChatUrl(config.url, secrets);
  const body = blockChatMessage(config, readPayload(d.payload));
  return {
    url,
    headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Relay-Chat/1' },
    body: Buffer.from(JSON.stringify(body), 'utf8'),
  };
}

/** Block-style chat webhook (spec "Relay target"; Slack incoming webhook). Its URL is stored sealed. */
export function createBlockChatKind(deps: ChatKindDeps): TargetKind<BlockChatConfig> {
  return {
    ...blockChatInfo,
    ...describedConfig<BlockChatConfig>(blockChatDescription, deps.secrets),
    buildRequest: (config, d) => buildRequest(config, d, deps.secrets),
    // rows stored before chat URLs were sealed
    sealPlaintext: (config) =>
      isPlaintextChatUrl(config.url) ? { ...config, url: sealChatUrl(config.url, deps.secrets) } : null,
    classify: classifyBlockChat,
  };
}
