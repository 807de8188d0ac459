import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import { DELIVERY_V1 } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';
import type { EmbedChatConfig } from './config';
import { createEmbedChatKind } from './index';
import { EMPTY_PAYLOAD_CONTENT, NO_MENTIONS } from './message';

const embedChatKind = createEmbedChatKind({ secrets: createSecretBox(`k1:${randomBytes(32).toString('base64')}`) });

const URL_OK = 'https://discord.com/api/webhooks/1/tok';
const base: EmbedChatConfig = { url: URL_OK, name: 'alerts' };

function delivery(body: string | null, contentType: string | null = 'application/json'): DeliveryMessageV1 {
  return {
    type: DELIVERY_V1,
    event_id: 'ev1',
    delivery_id: 'dl1',
    attempt: 1,
    account_id: 'acc',
    endpoint_id: 'ep',
    target_id: 'tg',
    target_kind: 'embed_chat',
    received_at: '2025-01-01T00:00:00.000Z',
    request: { method: 'POST', source_ip: '203.0.113.1', headers: {}, query: '' },
    payload: {
      content_type: body === null ? null : contentType,
      body_base64: Buffer.from(body ?? '').toString('base64'),
    },
  };
}

function sent(
  config: Partial<EmbedChatConfig>,
  body: string | null,
  contentType?: string | null,
): Record<string, unknown> {
  const req = embedChatKind.buildRequest({ ...base, ...config }, delivery(body, contentType));
  return JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
}

const json = (v: unknown): string => JSON.stringify(v);

// Spec "Forwarded request" → Chat targets, Embed-style row; test names quote it.
describe('Embed-style:', () => {
  it.each([
    ['an object, pretty-printed in a json code block', json({ a: 1 }), '```json\n{\n  "a": 1\n}\n```'],
    ['an array', json([1, 2]), '```json\n[\n  1,\n  2\n]\n```'],
    ['a number', '42', '```json\n42\n```'],
    ['a JSON string, as itself', json('deploy finished'), 'deploy finished'],
    [
      'backticks in the data cannot close the code block',
      json({ s: '```x' }),
      '```json\n{\n  "s": "\\u0060\\u0060\\u0060x"\n}\n```',
    ],
  ])('by default the JSON payload is sent as the message content: %s', (_n, body, content) => {
    expect(sent({}, body)).toEqual({ content, allowed_mentions: NO_MENTIONS });
  });

  it.each([
    ['text/plain', 'plain words', 'plain words'],
    ['application/xml', '<a>1</a>', '<a>1</a>'],
    ['application/x-www-form-urlencoded', 'a=1&b=2', 'a=1&b=2'],
    ['application/json that does not parse', '{oops', '{oops'],
  ])('non-JSON payloads (%s) are sent as their text', (type, body, content) => {
    expect(sent({}, body, type)).toEqual({ content, allowed_mentions: NO_MENTIONS });
  });

  it('an empty payload (format None) is sent as a visible placeholder, since Discord refuses an empty message', () => {
    expect(sent({}, null)).toEqual({ content: EMPTY_PAYLOAD_CONTENT, allowed_mentions: NO_MENTIONS });
  });

  it.each([
    ['fields by path', 'Build {{build.id}} {{status}}', json({ build: { id: 7 }, status: 'ok' }), 'Build 7 ok'],
    ['array items by index', '{{items.1}}', json({ items: ['a', 'b'] }), 'b'],
    ['a missing field → empty', 'x{{nope.deeper}}y', json({}), 'xy'],
    ['an object → JSON', '{{o}}', json({ o: { k: [1] } }), '{"k":[1]}'],
    ['form fields', 'by {{user}}', 'user=ann&x=1', 'by ann'],
    ['the whole text payload as {{.}}', 'got: {{.}}', 'hello', 'got: hello'],
  ])('with a message template, the template result is sent: %s', (_n, template, body, content) => {
    const type = body.startsWith('{')
      ? 'application/json'
      : body.includes('=')
        ? 'application/x-www-form-urlencoded'
        : 'text/plain';
    expect(sent({ template }, body, type)).toEqual({ content, allowed_mentions: NO_MENTIONS });
  });

  it('a configured template wins over a native payload (the operator chose it)', () => {
    expect(sent({ template: 'said {{content}}' }, json({ content: 'hi', embeds: [{ title: 't' }] }))).toEqual({
      content: 'said hi',
      allowed_mentions: NO_MENTIONS,
    });
  });

  it.each([
    ['content only', { content: 'hi' }],
    ['embeds only', { embeds: [{ title: 'T', description: 'D', fields: [{ name: 'n', value: 'v' }] }] }],
    [
      'content and embeds with other message fields',
      {
        content: 'hi',
        embeds: [{ title: 'T' }],
        username: 'bot',
        avatar_url: 'https://x.test/a.png',
        thread_name: 'th',
        flags: 4,
      },
    ],
  ])('a payload with content and/or embeds is sent natively: %s', (_n, payload) => {
    expect(sent({}, json(payload))).toEqual({ ...payload, allowed_mentions: NO_MENTIONS });
  });

  it.each<[string, Partial<EmbedChatConfig>, unknown, boolean | undefined]>([
    ['payload tts true, no destination value', {}, { content: 'x', tts: true }, true],
    ['payload tts false beats destination true', { tts: true }, { content: 'x', tts: false }, false],
    ['payload tts true beats destination false', { tts: false }, { content: 'x', tts: true }, true],
    ['payload tts kept in default mapping too', {}, { alert: 1, tts: true }, true],
    ['payload tts kept with a template', { template: 'x' }, { tts: true }, true],
  ])('a top-level tts boolean in the payload is passed on and kept: %s', (_n, config, payload, tts) => {
    expect(sent(config, json(payload)).tts).toBe(tts);
  });

  it.each<[string, Partial<EmbedChatConfig>, string, string | null, boolean | undefined]>([
    ['payload without tts → destination true applies', { tts: true }, json({ content: 'x' }), 'application/json', true],
    ['payload without tts → destination false applies', { tts: false }, json({ a: 1 }), 'application/json', false],
    [
      'non-boolean payload tts counts as none',
      { tts: true },
      json({ content: 'x', tts: 'yes' }),
      'application/json',
      true,
    ],
    ['text payload → destination applies', { tts: true }, 'hi', 'text/plain', true],
    ['neither set → no tts field', {}, json({ content: 'x', tts: 'yes' }), 'application/json', undefined],
  ])('a destination-level tts value applies only when the payload has none: %s', (_n, config, body, type, tts) => {
    expect(sent(config, body, type).tts).toBe(tts);
  });

  it.each<[string, Partial<EmbedChatConfig>, string, string]>([
    ['default mapping', {}, json({ msg: '@everyone look' }), 'application/json'],
    ['text payload', {}, '@everyone <@123> look', 'text/plain'],
    ['native payload', {}, json({ content: '@here <@&9> hi' }), 'application/json'],
    ['template', { template: 'hey {{who}}' }, json({ who: '@everyone' }), 'application/json'],
  ])('relayed text cannot ping: allowed_mentions {parse: []} is sent (%s)', (_n, config, body, type) => {
    expect(sent(config, body, type).allowed_mentions).toEqual({ parse: [] });
  });

  it('a payload that sets allowed_mentions keeps its own', () => {
    const am = { parse: ['users'], users: ['123'] };
    expect(sent({}, json({ content: '<@123>', allowed_mentions: am })).allowed_mentions).toEqual(am);
  });

  it.each([
    ['bold', '**x**'],
    ['italic', '*x*'],
    ['bold italic', '***x***'],
    ['strikethrough', '~~x~~'],
    ['underline', '__x__'],
    ['inline code', '`x`'],
    ['code block', '```\nx\n```'],
    ['quote', '> x'],
    ['spoiler', '||x||'],
  ])('Markdown (%s) in relayed text reaches the platform unchanged', (_n, markdown) => {
    expect(sent({}, json({ content: markdown })).content).toBe(markdown);
    expect(sent({}, markdown, 'text/plain').content).toBe(markdown);
  });
});

describe('Embed-style request', () => {
  it('POSTs JSON to the webhook URL with ?wait=true so success is confirmed', () => {
    const req = embedChatKind.buildRequest(base, delivery(json({ a: 1 })));
    expect(req.url).toBe(`${URL_OK}?wait=true`);
    expect(req.headers['content-type']).toBe('application/json');
  });

  it('keeps an existing thread_id', () => {
    const req = embedChatKind.buildRequest({ ...base, url: `${URL_OK}?thread_id=77` }, delivery(json({ a: 1 })));
    expect(new URL(req.url).searchParams.get('thread_id')).toBe('77');
    expect(new URL(req.url).searchParams.get('wait')).toBe('true');
  });

  it('is registered as embed_chat on the chat channel', () => {
    expect(embedChatKind.kind).toBe('embed_chat');
    expect(embedChatKind.channel).toBe('chat');
  });
});
