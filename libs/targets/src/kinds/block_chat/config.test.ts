import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import { createBlockChatKind } from './index';

const box = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
const blockChatKind = createBlockChatKind({ secrets: box });

/** Validates as the management API saves, with the sealed URL opened again to compare. */
function saved(input: unknown) {
  const v = blockChatKind.validateConfig(input);
  return v.ok ? { ok: true, value: { ...v.value, url: box.decrypt(v.value.url) } } : v;
}

const SECRET = 'XXXXXXXXXXXXXXXXXXXXXXXX';
const URL_OK = `https://hooks.slack.com/services/T00000000/B00000000/${SECRET}`;
const GOV = `https://hooks.slack-gov.com/services/T00000000/B00000000/${SECRET}`;

describe('Relay target → Block-style chat webhook: configuration', () => {
  // "webhook URL of the form https://{chat_hooks_host}/services/<path> (a government-variant host also exists)"
  it.each([
    ['the commercial host', URL_OK, URL_OK],
    ['the government-variant host', GOV, GOV],
    ['a trailing slash (dropped)', `${URL_OK}/`, URL_OK],
  ])('accepts %s', (_n, url, stored) => {
    expect(saved({ url, name: 'ops' })).toEqual({ ok: true, value: { url: stored, name: 'ops', markup: true } });
  });

  it.each([
    ['a missing url', undefined, /required/],
    ['not a URL', 'hooks.slack.com/services/x', /absolute URL/],
    ['http', URL_OK.replace('https', 'http'), /must start with/],
    ['another host', URL_OK.replace('hooks.slack.com', 'hooks.example.com'), /must start with/],
    ['the API host', URL_OK.replace('hooks.slack.com', 'slack.com'), /must start with/],
    ['a port', URL_OK.replace('hooks.slack.com', 'hooks.slack.com:444'), /must start with/],
    ['a query string', `${URL_OK}?x=1`, /query string/],
    ['a path outside /services/', 'https://hooks.slack.com/workflows/T00000000/A000/123/abc', /must have the form/],
    ['a short path', 'https://hooks.slack.com/services/T00000000/B00000000', /must have the form/],
    ['ids that are not T…/B…', `https://hooks.slack.com/services/X00000000/B00000000/${SECRET}`, /must have the form/],
  ])('refuses %s with a config.url error that does not echo the url', (_n, url, message) => {
    const v = blockChatKind.validateConfig({ url, name: 'ops' });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.errors).toEqual([{ field: 'config.url', message: expect.stringMatching(message) }]);
    expect(v.errors[0]!.message).not.toContain(SECRET);
  });

  it.each([
    ['config.name', { url: URL_OK }],
    ['config.template', { url: URL_OK, name: 'a', template: ['x'] }],
    ['config.markup', { url: URL_OK, name: 'a', markup: 'off' }],
    ['config', 'https://hooks.slack.com/services/T/B/x'],
  ])('refuses an invalid %s', (field, input) => {
    const v = blockChatKind.validateConfig(input);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.errors.map((e) => e.field)).toContain(field);
  });

  it('markup defaults to on (the chat service default); template optional; unknown keys dropped', () => {
    expect(saved({ url: URL_OK, name: 'ops', markup: false, template: '*{{a}}*', other: 1 })).toEqual({
      ok: true,
      value: { url: URL_OK, name: 'ops', markup: false, template: '*{{a}}*' },
    });
  });

  it('publicConfig shows host and workspace/webhook ids but never the secret', () => {
    const shown = blockChatKind.publicConfig({ url: GOV, name: 'ops', markup: true });
    expect(shown).toEqual({ url: 'https://hooks.slack-gov.com/services/T00000000/B00000000/****', name: 'ops', markup: true });
    expect(JSON.stringify(shown)).not.toContain(SECRET);
  });
});
