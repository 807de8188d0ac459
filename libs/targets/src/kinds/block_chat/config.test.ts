import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import { createBlockChatKind } from './index';

const box = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
const blockChatKind = createBlockChatKind({ secrets: box });

/** Validates as the management API saves, with the sealed URL opened again to compare. */
function saved(input: unknown) {
  const v = blockChatKind.validateConfig(input);
  return v.ok ? { ok: true as const, value: { ...v.value, url: box.decrypt(v.value.url) } } : v;
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
    ['an upper-case host (normalized)', URL_OK.replace('hooks.slack.com', 'Hooks.Slack.COM'), URL_OK],
    // The spec's form is /services/<path>, on either host
    [
      'the government host with a short last segment',
      'https://hooks.slack-gov.com/services/T0001/B0001/abc',
      'https://hooks.slack-gov.com/services/T0001/B0001/abc',
    ],
    [
      'ids that are not T…/B…',
      `https://hooks.slack.com/services/X00000000/B00000000/${SECRET}`,
      `https://hooks.slack.com/services/X00000000/B00000000/${SECRET}`,
    ],
    [
      'a two-segment path',
      'https://hooks.slack.com/services/T00000000/B00000000',
      'https://hooks.slack.com/services/T00000000/B00000000',
    ],
    [
      'a one-segment path',
      'https://hooks.slack-gov.com/services/abc-DEF_123',
      'https://hooks.slack-gov.com/services/abc-DEF_123',
    ],
  ])('accepts https://{chat_hooks_host}/services/<path>: %s', (_n, url, stored) => {
    expect(saved({ url, name: 'ops' })).toEqual({ ok: true, value: { url: stored, name: 'ops', markup: true } });
  });

  it.each([
    ['a missing url', undefined, 'url is required'],
    [
      'not a URL',
      'hooks.slack.com/services/x',
      'url must be an absolute URL of the form https://hooks.slack.com/services/<path> or https://hooks.slack-gov.com/services/<path>',
    ],
    [
      'another host',
      URL_OK.replace('hooks.slack.com', 'hooks.example.com'),
      'url host must be hooks.slack.com or hooks.slack-gov.com',
    ],
    [
      'the API host',
      URL_OK.replace('hooks.slack.com', 'slack.com'),
      'url host must be hooks.slack.com or hooks.slack-gov.com',
    ],
    [
      'http on the government host (the message keeps its host)',
      GOV.replace('https', 'http'),
      'url must use https: https://hooks.slack-gov.com/services/<path>',
    ],
    [
      'a port',
      URL_OK.replace('hooks.slack.com', 'hooks.slack.com:444'),
      'url must not name a port: https://hooks.slack.com/services/<path>',
    ],
    [
      'credentials',
      URL_OK.replace('https://', 'https://u:p@'),
      'url must not contain credentials: https://hooks.slack.com/services/<path>',
    ],
    ['a query string', `${URL_OK}?x=1`, 'url must not have a query string'],
    ['a fragment', `${URL_OK}#x`, 'url must not have a fragment (#…)'],
    [
      'a path outside /services/ on the government host',
      `https://hooks.slack-gov.com/workflows/T00000000/A000/${SECRET}`,
      'url path must start with /services/: https://hooks.slack-gov.com/services/<path>',
    ],
    [
      'nothing after /services/',
      'https://hooks.slack.com/services/',
      'url has nothing after /services/: https://hooks.slack.com/services/<path>',
    ],
    [
      'an empty segment',
      `https://hooks.slack.com/services/T0//${SECRET}`,
      'url path after /services/ may hold only letters, digits, "-" and "_", in segments separated by single "/"',
    ],
    [
      'a percent-encoded character',
      `https://hooks.slack.com/services/T0/B0/${SECRET}%2F`,
      'url path after /services/ may hold only letters, digits, "-" and "_", in segments separated by single "/"',
    ],
    [
      'a path over 512 characters',
      `https://hooks.slack.com/services/${'a'.repeat(513)}`,
      'url path after /services/ is longer than 512 characters',
    ],
  ])('refuses %s with a config.url error that does not echo the url', (_n, url, message) => {
    const v = blockChatKind.validateConfig({ url, name: 'ops' });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.errors).toEqual([{ field: 'config.url', message }]);
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

  it('markup defaults to on (the chat service default); template optional', () => {
    expect(saved({ url: URL_OK, name: 'ops' })).toEqual({
      ok: true,
      value: { url: URL_OK, name: 'ops', markup: true },
    });
    expect(saved({ url: URL_OK, name: 'ops', markup: false, template: '*{{a}}*' })).toEqual({
      ok: true,
      value: { url: URL_OK, name: 'ops', markup: false, template: '*{{a}}*' },
    });
  });

  it('an unknown setting is refused by name, never dropped silently (a misspelt markup would save the default)', () => {
    expect(saved({ url: URL_OK, name: 'ops', mrkdwn: false, other: 1 })).toEqual({
      ok: false,
      errors: [
        { field: 'config.mrkdwn', message: 'unknown setting' },
        { field: 'config.other', message: 'unknown setting' },
      ],
    });
  });

  it('reports every problem at once', () => {
    const v = saved({ url: 'http://hooks.slack.com/services/x', name: '', template: 5, markup: 'off', extra: true });
    expect(v.ok ? [] : v.errors.map((e) => e.field)).toEqual([
      'config.extra',
      'config.url',
      'config.name',
      'config.template',
      'config.markup',
    ]);
  });

  it('publicConfig shows the host and every path segment but the last, which is masked', () => {
    const shortPath = blockChatKind.validateConfig({
      url: 'https://hooks.slack-gov.com/services/abc-DEF_123',
      name: 'ops',
    });
    if (!shortPath.ok) throw new Error('refused');
    expect(blockChatKind.publicConfig(shortPath.value).url).toBe('https://hooks.slack-gov.com/services/****');
  });

  it('publicConfig shows host and workspace/webhook ids but never the secret', () => {
    const shown = blockChatKind.publicConfig({ url: GOV, name: 'ops', markup: true });
    expect(shown).toEqual({
      url: 'https://hooks.slack-gov.com/services/T00000000/B00000000/****',
      name: 'ops',
      markup: true,
    });
    expect(JSON.stringify(shown)).not.toContain(SECRET);
  });
});
