import type { DeliveryMessageV1 } from '@relay/contracts';
import type { KindInfo, OutboundRequest, TargetKind } from '../../kind';
import { readPayload } from '../template';
import { classifyBlockChat } from './classify';
import { publicBlockChatConfig, validateBlockChatConfig } from './config';
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

export const blockChatInfo: KindInfo = { kind: 'block_chat', channel: 'chat', defaultRetryScheduleMs: BLOCK_CHAT_RETRY_SCHEDULE_MS };

function buildRequest(config: BlockChatConfig, d: DeliveryMessageV1): OutboundRequest {
  const body = blockChatMessage(config, readPayload(d.payload));
  return {
    url: config.url,
    headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Relay-Chat/1' },
    body: Buffer.from(JSON.stringify(body), 'utf8'),
  };
}

/** Block-style chat webhook (spec "Relay target"; Slack incoming webhook). */
export const blockChatKind: TargetKind<BlockChatConfig> = {
  ...blockChatInfo,
  validateConfig: validateBlockChatConfig,
  publicConfig: publicBlockChatConfig,
  buildRequest,
  classify: classifyBlockChat,
};
