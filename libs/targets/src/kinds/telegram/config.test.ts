import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import { createTelegramKind } from './index';

const box = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
const kind = createTelegramKind({ secrets: box });
const TOKEN = '123456789:AAEhBP0av28hRWZWvNzqxsFMjLAo3u1CQ4s';

describe('Telegram target: configuration from its description', () => {
  it('stores the bot token sealed, applies the defaults, and shows the token only as set', () => {
    const v = kind.validateConfig({ bot_token: TOKEN, chat_id: ' -1001234567890 ', name: 'ops' });
    if (!v.ok) throw new Error(JSON.stringify(v.errors));
    expect(v.value).toEqual({
      bot_token: expect.stringMatching(/^enc:v1:/),
      chat_id: '-1001234567890',
      name: 'ops',
      parse_mode: 'none',
      disable_notification: false,
    });
    expect(box.decrypt(v.value.bot_token)).toBe(TOKEN);
    const shown = kind.publicConfig(v.value);
    expect(shown).toEqual({
      bot_token: '[redacted]',
      chat_id: '-1001234567890',
      name: 'ops',
      parse_mode: 'none',
      disable_notification: false,
    });
    expect(JSON.stringify(shown)).not.toContain(TOKEN.split(':')[1]);
  });

  it.each([
    ['config.bot_token', { chat_id: '1', name: 'a' }],
    ['config.bot_token', { bot_token: 'not-a-token', chat_id: '1', name: 'a' }],
    ['config.chat_id', { bot_token: TOKEN, name: 'a' }],
    ['config.chat_id', { bot_token: TOKEN, chat_id: 'general', name: 'a' }],
    ['config.parse_mode', { bot_token: TOKEN, chat_id: '@news_channel', name: 'a', parse_mode: 'Markdown' }],
    ['config.disable_notification', { bot_token: TOKEN, chat_id: '1', name: 'a', disable_notification: 'yes' }],
    ['config.template', { bot_token: TOKEN, chat_id: '1', name: 'a', template: ' ' }],
    ['config.url', { bot_token: TOKEN, chat_id: '1', name: 'a', url: 'https://api.telegram.org/' }],
  ])('refuses a bad config at %s, never echoing the token', (field, input) => {
    const v = kind.validateConfig(input);
    expect(v.ok ? [] : v.errors.map((e) => e.field)).toContain(field);
    expect(JSON.stringify(v)).not.toContain('not-a-token');
  });

  it('accepts a public channel username and both parse modes', () => {
    for (const parse_mode of ['HTML', 'MarkdownV2'])
      expect(kind.validateConfig({ bot_token: TOKEN, chat_id: '@news_channel', name: 'a', parse_mode }).ok).toBe(true);
  });
});
