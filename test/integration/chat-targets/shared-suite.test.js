"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const shared_suite_1 = require("../../../libs/targets/src/kinds/shared-suite");
const fake_discord_1 = require("../../support/fake-discord");
const fake_slack_1 = require("../../support/fake-slack");
const fake_teams_1 = require("../../support/fake-teams");
const fake_telegram_1 = require("../../support/fake-telegram");
const fixtures_1 = require("./fixtures");
// STYLE.md: "Every kind runs one shared delivery test suite." The receivers are the fake
// platforms, which refuse anything the real ones would.
(0, shared_suite_1.runTargetKindSuite)(fixtures_1.embedChatKind, {
    validConfig: { url: fixtures_1.DISCORD_URL, name: 'alerts', template: 'Build {{id}}: {{status}}', tts: false },
    invalidConfigs: [
        { input: { url: 'https://example.com/api/webhooks/1/x', name: 'alerts' }, field: 'config.url' },
        { input: { url: fixtures_1.DISCORD_URL }, field: 'config.name' },
    ],
    delivery: (0, fixtures_1.delivery)({ id: 7, status: 'green' }),
    secrets: [fixtures_1.DISCORD_TOKEN],
    startReceiver: async () => {
        const fake = await (0, fake_discord_1.startFakeDiscord)({ webhooks: [{ id: fixtures_1.DISCORD_ID, token: fixtures_1.DISCORD_TOKEN }] });
        return { send: fake.send, received: () => fake.requests, close: fake.close };
    },
});
(0, shared_suite_1.runTargetKindSuite)(fixtures_1.blockChatKind, {
    validConfig: { url: fixtures_1.SLACK_URL, name: 'ops' },
    invalidConfigs: [
        { input: { url: 'https://hooks.example.com/services/T1/B1/x', name: 'ops' }, field: 'config.url' },
        { input: { url: fixtures_1.SLACK_URL, name: 'ops', markup: 'yes' }, field: 'config.markup' },
    ],
    delivery: (0, fixtures_1.delivery)({ id: 7, status: 'green' }, 'application/json', 'block_chat'),
    secrets: [fixtures_1.SLACK_SECRET],
    startReceiver: async () => {
        const fake = await (0, fake_slack_1.startFakeSlack)({ hooks: [fixtures_1.SLACK_PATH] });
        return { send: fake.send, received: () => fake.requests, close: fake.close };
    },
});
(0, shared_suite_1.runTargetKindSuite)(fixtures_1.telegramKind, {
    validConfig: { bot_token: fixtures_1.TELEGRAM_TOKEN, chat_id: '-1001234567890', name: 'ops', parse_mode: 'HTML', template: '<b>Build {{id}}</b>: {{status}}' },
    invalidConfigs: [
        { input: { bot_token: 'nope', chat_id: '1', name: 'ops' }, field: 'config.bot_token' },
        { input: { bot_token: fixtures_1.TELEGRAM_TOKEN, chat_id: 'general', name: 'ops' }, field: 'config.chat_id' },
    ],
    delivery: (0, fixtures_1.delivery)({ id: 7, status: 'green' }, 'application/json', 'telegram'),
    secrets: [fixtures_1.TELEGRAM_TOKEN.split(':')[1]],
    startReceiver: async () => {
        const fake = await (0, fake_telegram_1.startFakeTelegram)();
        fake.addBot(fixtures_1.TELEGRAM_TOKEN, ['-1001234567890']);
        return { send: fake.send, received: () => fake.requests, close: fake.close };
    },
});
(0, shared_suite_1.runTargetKindSuite)(fixtures_1.teamsKind, {
    validConfig: { url: fixtures_1.TEAMS_URL, name: 'ops', template: 'Build {{id}}: {{status}}' },
    invalidConfigs: [
        { input: { url: 'https://example.com/workflows/x/triggers/manual/paths/invoke?sig=abc', name: 'ops' }, field: 'config.url' },
        { input: { url: fixtures_1.TEAMS_URL, name: 'ops', format: 'html' }, field: 'config.format' },
    ],
    delivery: (0, fixtures_1.delivery)({ id: 7, status: 'green' }, 'application/json', 'teams'),
    secrets: [fixtures_1.TEAMS_SIG],
    startReceiver: async () => {
        const fake = await (0, fake_teams_1.startFakeTeams)();
        fake.addWorkflow(fixtures_1.TEAMS_WORKFLOW, fixtures_1.TEAMS_SIG);
        return { send: fake.send, received: () => fake.requests, close: fake.close };
    },
});
//# sourceMappingURL=shared-suite.test.js.map