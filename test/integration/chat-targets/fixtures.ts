import { randomBytes } from 'node:crypto';
import { DELIVERY_V1 } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { createSecretBox } from '@relay/secrets';
import { createBlockChatKind } from '../../../libs/targets/src/kinds/block_chat';
import { createEmbedChatKind } from '../../../libs/targets/src/kinds/embed_chat';
import { createTeamsKind } from '../../../libs/targets/src/kinds/teams';
import { createTelegramKind } from '../../../libs/targets/src/kinds/telegram';

/* Shared by the chat-target integration tests: real-looking webhook URLs for the fakes. */

export const DISCORD_ID = '112233445566778899';
export const DISCORD_TOKEN = 'fakeToken_abcDEF-1234567890';
export const DISCORD_URL = `https://discord.com/api/webhooks/${DISCORD_ID}/${DISCORD_TOKEN}`;

export const SLACK_SECRET = 'fakeSecretAbc123XYZ789def';
export const SLACK_PATH = `/services/T0FAKE001/B0FAKE001/${SLACK_SECRET}`;
export const SLACK_URL = `https://hooks.slack.com${SLACK_PATH}`;

export const TELEGRAM_TOKEN = '123456789:AAFakeTokenForTests_abcdefghijklmnop';

export const TEAMS_WORKFLOW = '0123456789abcdef0123456789abcdef';
export const TEAMS_SIG = 'fakeSigForTests_0123456789ABCDEFabcdef';
export const TEAMS_URL = `https://prod-12.westeurope.logic.azure.com:443/workflows/${TEAMS_WORKFLOW}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${TEAMS_SIG}`;

/** The chat kinds seal their webhook URL at rest, so they are built with a secret box, as the services build them. */
export const chatSecrets = createSecretBox(`it:${randomBytes(32).toString('base64')}`);
export const embedChatKind = createEmbedChatKind({ secrets: chatSecrets });
export const blockChatKind = createBlockChatKind({ secrets: chatSecrets });
export const telegramKind = createTelegramKind({ secrets: chatSecrets });
export const teamsKind = createTeamsKind({ secrets: chatSecrets });

let seq = 0;

export function delivery(
  body: unknown,
  contentType: string | null = 'application/json',
  targetKind = 'embed_chat',
): DeliveryMessageV1 {
  seq += 1;
  const bytes =
    body === undefined
      ? ''
      : typeof body === 'string' && contentType !== 'application/json'
        ? body
        : JSON.stringify(body);
  return {
    type: DELIVERY_V1,
    event_id: `ev-${seq}`,
    delivery_id: `dl-${seq}`,
    attempt: 1,
    account_id: 'acc-chat',
    endpoint_id: 'ep-chat',
    target_id: `tg-${targetKind}`,
    target_kind: targetKind,
    received_at: new Date().toISOString(),
    request: { method: 'POST', source_ip: '203.0.113.9', headers: {}, query: '' },
    payload: {
      content_type: body === undefined ? null : contentType,
      body_base64: Buffer.from(bytes).toString('base64'),
    },
  };
}
