import { runTargetKindSuite } from '../../../libs/targets/src/kinds/shared-suite';
import { startFakeDiscord } from '../../support/fake-discord';
import { startFakeSlack } from '../../support/fake-slack';
import { startFakeTeams } from '../../support/fake-teams';
import { startFakeTelegram } from '../../support/fake-telegram';
import {
  DISCORD_ID,
  DISCORD_TOKEN,
  DISCORD_URL,
  SLACK_PATH,
  SLACK_SECRET,
  SLACK_URL,
  TEAMS_SIG,
  TEAMS_URL,
  TEAMS_WORKFLOW,
  TELEGRAM_TOKEN,
  blockChatKind,
  delivery,
  embedChatKind,
  teamsKind,
  telegramKind,
} from './fixtures';

// STYLE.md: "Every kind runs one shared delivery test suite." The receivers are the fake
// platforms, which refuse anything the real ones would.

runTargetKindSuite(embedChatKind, {
  validConfig: { url: DISCORD_URL, name: 'alerts', template: 'Build {{id}}: {{status}}', tts: false },
  invalidConfigs: [
    { input: { url: 'https://example.com/api/webhooks/1/x', name: 'alerts' }, field: 'config.url' },
    { input: { url: DISCORD_URL }, field: 'config.name' },
  ],
  delivery: delivery({ id: 7, status: 'green' }),
  secrets: [DISCORD_TOKEN],
  startReceiver: async () => {
    const fake = await startFakeDiscord({ webhooks: [{ id: DISCORD_ID, token: DISCORD_TOKEN }] });
    return { send: fake.send, received: () => fake.requests, close: fake.close };
  },
});

runTargetKindSuite(blockChatKind, {
  validConfig: { url: SLACK_URL, name: 'ops' },
  invalidConfigs: [
    { input: { url: 'https://hooks.example.com/services/T1/B1/x', name: 'ops' }, field: 'config.url' },
    { input: { url: SLACK_URL, name: 'ops', markup: 'yes' }, field: 'config.markup' },
  ],
  delivery: delivery({ id: 7, status: 'green' }, 'application/json', 'block_chat'),
  secrets: [SLACK_SECRET],
  startReceiver: async () => {
    const fake = await startFakeSlack({ hooks: [SLACK_PATH] });
    return { send: fake.send, received: () => fake.requests, close: fake.close };
  },
});

runTargetKindSuite(telegramKind, {
  validConfig: {
    bot_token: TELEGRAM_TOKEN,
    chat_id: '-1001234567890',
    name: 'ops',
    parse_mode: 'HTML',
    template: '<b>Build {{id}}</b>: {{status}}',
  },
  invalidConfigs: [
    { input: { bot_token: 'nope', chat_id: '1', name: 'ops' }, field: 'config.bot_token' },
    { input: { bot_token: TELEGRAM_TOKEN, chat_id: 'general', name: 'ops' }, field: 'config.chat_id' },
  ],
  delivery: delivery({ id: 7, status: 'green' }, 'application/json', 'telegram'),
  secrets: [TELEGRAM_TOKEN.split(':')[1]!],
  startReceiver: async () => {
    const fake = await startFakeTelegram();
    fake.addBot(TELEGRAM_TOKEN, ['-1001234567890']);
    return { send: fake.send, received: () => fake.requests, close: fake.close };
  },
});

runTargetKindSuite(teamsKind, {
  validConfig: { url: TEAMS_URL, name: 'ops', template: 'Build {{id}}: {{status}}' },
  invalidConfigs: [
    {
      input: { url: 'https://example.com/workflows/x/triggers/manual/paths/invoke?sig=abc', name: 'ops' },
      field: 'config.url',
    },
    { input: { url: TEAMS_URL, name: 'ops', format: 'html' }, field: 'config.format' },
  ],
  delivery: delivery({ id: 7, status: 'green' }, 'application/json', 'teams'),
  secrets: [TEAMS_SIG],
  startReceiver: async () => {
    const fake = await startFakeTeams();
    fake.addWorkflow(TEAMS_WORKFLOW, TEAMS_SIG);
    return { send: fake.send, received: () => fake.requests, close: fake.close };
  },
});
