"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.teamsKind = exports.telegramKind = exports.blockChatKind = exports.embedChatKind = exports.chatSecrets = exports.TEAMS_URL = exports.TEAMS_SIG = exports.TEAMS_WORKFLOW = exports.TELEGRAM_TOKEN = exports.SLACK_URL = exports.SLACK_PATH = exports.SLACK_SECRET = exports.DISCORD_URL = exports.DISCORD_TOKEN = exports.DISCORD_ID = void 0;
exports.delivery = delivery;
const node_crypto_1 = require("node:crypto");
const contracts_1 = require("@relay/contracts");
const secrets_1 = require("@relay/secrets");
const block_chat_1 = require("../../../libs/targets/src/kinds/block_chat");
const embed_chat_1 = require("../../../libs/targets/src/kinds/embed_chat");
const teams_1 = require("../../../libs/targets/src/kinds/teams");
const telegram_1 = require("../../../libs/targets/src/kinds/telegram");
/* Shared by the chat-target integration tests: real-looking webhook URLs for the fakes. */
exports.DISCORD_ID = '112233445566778899';
exports.DISCORD_TOKEN = 'fakeToken_abcDEF-1234567890';
exports.DISCORD_URL = `https://discord.com/api/webhooks/${exports.DISCORD_ID}/${exports.DISCORD_TOKEN}`;
exports.SLACK_SECRET = 'fakeSecretAbc123XYZ789def';
exports.SLACK_PATH = `/services/T0FAKE001/B0FAKE001/${exports.SLACK_SECRET}`;
exports.SLACK_URL = `https://hooks.slack.com${exports.SLACK_PATH}`;
exports.TELEGRAM_TOKEN = '123456789:AAFakeTokenForTests_abcdefghijklmnop';
exports.TEAMS_WORKFLOW = '0123456789abcdef0123456789abcdef';
exports.TEAMS_SIG = 'fakeSigForTests_0123456789ABCDEFabcdef';
exports.TEAMS_URL = `https://prod-12.westeurope.logic.azure.com:443/workflows/${exports.TEAMS_WORKFLOW}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${exports.TEAMS_SIG}`;
/** The chat kinds seal their webhook URL at rest, so they are built with a secret box, as the services build them. */
exports.chatSecrets = (0, secrets_1.createSecretBox)(`it:${(0, node_crypto_1.randomBytes)(32).toString('base64')}`);
exports.embedChatKind = (0, embed_chat_1.createEmbedChatKind)({ secrets: exports.chatSecrets });
exports.blockChatKind = (0, block_chat_1.createBlockChatKind)({ secrets: exports.chatSecrets });
exports.telegramKind = (0, telegram_1.createTelegramKind)({ secrets: exports.chatSecrets });
exports.teamsKind = (0, teams_1.createTeamsKind)({ secrets: exports.chatSecrets });
let seq = 0;
function delivery(body, contentType = 'application/json', targetKind = 'embed_chat') {
    seq += 1;
    const bytes = body === undefined ? '' : typeof body === 'string' && contentType !== 'application/json' ? body : JSON.stringify(body);
    return {
        type: contracts_1.DELIVERY_V1,
        event_id: `ev-${seq}`,
        delivery_id: `dl-${seq}`,
        attempt: 1,
        account_id: 'acc-chat',
        endpoint_id: 'ep-chat',
        target_id: `tg-${targetKind}`,
        target_kind: targetKind,
        received_at: new Date().toISOString(),
        request: { method: 'POST', source_ip: '203.0.113.9', headers: {}, query: '' },
        payload: { content_type: body === undefined ? null : contentType, body_base64: Buffer.from(bytes).toString('base64') },
    };
}
//# sourceMappingURL=fixtures.js.map