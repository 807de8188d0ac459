import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import { createEmbedChatKind } from './index';

const box = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
const embedChatKind = createEmbedChatKind({ secrets: box });

/** Validates as the management API saves, with the sealed URL opened again to compare. */
function saved(input: unknown) {
  const v = embedChatKind.validateConfig(input);
  return v.ok ? { ok: true as const, value: { ...v.value, url: box.decrypt(v.value.url) } } : v;
}

const TOKEN = 'AbC-123_xyzTOKEN';
const URL_OK = `https://discord.com/api/webhooks/123456789012345678/${TOKEN}`;

describe('Relay target → Embed-style chat webhook: configuration', () => {
  // "webhook URL (must start with one of the two accepted chat-service prefixes of the form {chat_host}/api/webhooks/)"
  it.each([
    ['the discord.com prefix', URL_OK, URL_OK],
    [
      'the discordapp.com prefix',
      `https://discordapp.com/api/webhooks/1/${TOKEN}`,
      `https://discordapp.com/api/webhooks/1/${TOKEN}`,
    ],
    ['a trailing slash (dropped)', `${URL_OK}/`, URL_OK],
    [
      'an upper-case host (normalized)',
      `https://Discord.COM/api/webhooks/1/${TOKEN}`,
      `https://discord.com/api/webhooks/1/${TOKEN}`,
    ],
    ['a thread_id query (kept)', `${URL_OK}?thread_id=42`, `${URL_OK}?thread_id=42`],
    ['a wait query (dropped: Relay always sets wait=true)', `${URL_OK}?wait=false`, URL_OK],
  ])('accepts %s', (_name, url, stored) => {
    expect(saved({ url, name: 'alerts' })).toEqual({ ok: true, value: { url: stored, name: 'alerts' } });
  });

  it.each([
    ['a missing url', undefined, /required/],
    ['a relative url', 'api/webhooks/1/x', /absolute URL/],
    ['http', `http://discord.com/api/webhooks/1/${TOKEN}`, /must start with/],
    ['another host', `https://example.com/api/webhooks/1/${TOKEN}`, /must start with/],
    ['a look-alike host', `https://discord.com.evil.test/api/webhooks/1/${TOKEN}`, /must start with/],
    ['a port', `https://discord.com:8443/api/webhooks/1/${TOKEN}`, /must start with/],
    ['credentials in the url', `https://u:p@discord.com/api/webhooks/1/${TOKEN}`, /must start with/],
    [
      'the ptb. host (decision: refused, message gives the fix)',
      `https://ptb.discord.com/api/webhooks/1/${TOKEN}`,
      /ptb\. and canary\. hosts are not accepted/,
    ],
    [
      'the canary. host',
      `https://canary.discord.com/api/webhooks/1/${TOKEN}`,
      /ptb\. and canary\. hosts are not accepted/,
    ],
    [
      'a versioned /api/v10/ path (decision: refused)',
      `https://discord.com/api/v10/webhooks/1/${TOKEN}`,
      /versioned \/api\/vN\//,
    ],
    ['a missing token', 'https://discord.com/api/webhooks/1', /must have the form/],
    ['a non-numeric id', `https://discord.com/api/webhooks/abc/${TOKEN}`, /must have the form/],
    ['the /slack compatibility path', `${URL_OK}/slack`, /must have the form/],
    ['a non-numeric thread_id', `${URL_OK}?thread_id=abc`, /thread_id/],
    ['another query parameter', `${URL_OK}?foo=1`, /only query parameter/],
  ])('refuses %s with a config.url error that does not echo the url', (_name, url, message) => {
    const v = embedChatKind.validateConfig({ url, name: 'alerts' });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.errors).toEqual([{ field: 'config.url', message: expect.stringMatching(message) }]);
    expect(v.errors[0]!.message).not.toContain(TOKEN);
  });

  it.each([
    ['config.name', { url: URL_OK }],
    ['config.name', { url: URL_OK, name: '  ' }],
    ['config.template', { url: URL_OK, name: 'a', template: 5 }],
    ['config.template', { url: URL_OK, name: 'a', template: '' }],
    ['config.template', { url: URL_OK, name: 'a', template: 'x'.repeat(10_001) }],
    ['config.tts', { url: URL_OK, name: 'a', tts: 'yes' }],
    ['config', null],
    ['config', [URL_OK]],
  ])('refuses an invalid %s', (field, input) => {
    const v = embedChatKind.validateConfig(input);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.errors.map((e) => e.field)).toContain(field);
  });

  it('reports every problem at once', () => {
    const v = embedChatKind.validateConfig({ url: 'nope', tts: 1, template: '', colour: 'red' });
    expect(v.ok).toBe(false);
    if (!v.ok)
      expect(v.errors.map((e) => e.field).sort()).toEqual([
        'config.colour',
        'config.name',
        'config.template',
        'config.tts',
        'config.url',
      ]);
  });

  it('an unknown setting is refused by name, never dropped silently', () => {
    expect(saved({ url: URL_OK, name: 'a', text_to_speech: true })).toEqual({
      ok: false,
      errors: [{ field: 'config.text_to_speech', message: 'unknown setting' }],
    });
  });

  it('stores its settings (optional template and tts kept, null = unset)', () => {
    expect(saved({ url: URL_OK, name: ' a ', template: 'Hi {{who}}', tts: false })).toEqual({
      ok: true,
      value: { url: URL_OK, name: 'a', template: 'Hi {{who}}', tts: false },
    });
    expect(saved({ url: URL_OK, name: 'a', template: null, tts: null })).toEqual({
      ok: true,
      value: { url: URL_OK, name: 'a' },
    });
  });

  it('publicConfig shows host and webhook id but never the token', () => {
    const shown = embedChatKind.publicConfig({ url: `${URL_OK}?thread_id=42`, name: 'alerts', tts: true });
    expect(shown).toEqual({
      url: 'https://discord.com/api/webhooks/123456789012345678/****?thread_id=42',
      name: 'alerts',
      tts: true,
    });
    expect(JSON.stringify(shown)).not.toContain(TOKEN);
  });
});
