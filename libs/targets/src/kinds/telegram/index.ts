import type { DeliveryMessageV1 } from '@relay/contracts';
import { describedConfig } from '../../describe/kind-config';
import { TargetConfigError } from '../../kind';
import type { KindInfo, OutboundRequest, SecretSealer, TargetKind } from '../../kind';
import { readPayload } from '../template';
import { classifyTelegram } from './classify';
import { telegramDescription } from './config';
import type { TelegramConfig } from './config';
import { telegramMessage } from './message';

export type { TelegramConfig } from './config';
export { classifyTelegram } from './classify';

/** The Bot API's host: the token travels in the path, `https://api.telegram.org/bot<token>/<method>`. */
export const TELEGRAM_API_HOST = 'api.telegram.org';

/**
 * The chat kinds' fast schedule (1 s … 30 s): Telegram's flood control answers 429 with a
 * `retry_after`, which wins when it is longer than the next step.
 */
export const TELEGRAM_RETRY_SCHEDULE_MS: readonly number[] = [1_000, 2_000, 5_000, 15_000, 30_000];

export const telegramInfo: KindInfo = {
  kind: 'telegram',
  channel: 'chat',
  defaultRetryScheduleMs: TELEGRAM_RETRY_SCHEDULE_MS,
  description: telegramDescription,
  defaultLimits: { rate: 20, per: 'minute', max_in_flight: null },
  resendable: true,
};

function openToken(stored: string, secrets: SecretSealer): string {
  try {
    return secrets.decrypt(stored);
  } catch (err) {
    throw new TargetConfigError(
      'SECRET_UNREADABLE',
      `the stored bot token cannot be decrypted: ${(err as Error).message}`,
    );
  }
}

function buildRequest(config: TelegramConfig, d: DeliveryMessageV1, secrets: SecretSealer): OutboundRequest {
  return {
    url: `https://${TELEGRAM_API_HOST}/bot${openToken(config.bot_token, secrets)}/sendMessage`,
    headers: { 'content-type': 'application/json', 'user-agent': 'Relay-Chat/1' },
    body: Buffer.from(JSON.stringify(telegramMessage(config, readPayload(d.payload))), 'utf8'),
  };
}

/** Telegram bot message (Bot API sendMessage) on the chat channel. Its bot token is stored sealed. */
export function createTelegramKind(deps: { secrets: SecretSealer }): TargetKind<TelegramConfig> {
  return {
    ...telegramInfo,
    ...describedConfig<TelegramConfig>(telegramDescription, deps.secrets),
    buildRequest: (config, d) => buildRequest(config, d, deps.secrets),
    classify: classifyTelegram,
  };
}
