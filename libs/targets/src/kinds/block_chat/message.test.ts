import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import { DELIVERY_V1 } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';
import type { BlockChatConfig } from './config';
import { createBlockChatKind } from './index';
import { EMPTY_PAYLOAD_TEXT } from './message';

const blockChatKind = createBlockChatKind({ secrets: createSecretBox(`k1:${randomBytes(32).toString('base64')}`) });

const base: BlockChatConfig = {
  url: 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
  name: 'ops',
  markup: true,
};

function delivery(body: string | null, contentType: string | null = 'application/json'): DeliveryMessageV1 {
  return {
    type: DELIVERY_V1,
    event_id: 'ev1',
    delivery_id: 'dl1',
    attempt: 1,
    account_id: 'acc',
    endpoint_id: 'ep',
    target_id: 'tg',
    target_kind: 'block_chat',
    received_at: '2025-01-01T00:00:00.000Z',
    request: { method: 'POST', source_ip: '203.0.113.1', headers: {}, query: '' },
    payload: {
      content_type: body === null ? null : contentType,
      body_base64: Buffer.from(body ?? '').toString('base64'),
    },
  };
}

function sent(
  config: Partial<BlockChatConfig>,
  body: string | null,
  contentType?: string | null,
): Record<string, unknown> {
  const req = blockChatKind.buildRequest({ ...base, ...config }, delivery(body, contentType));
  return JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
}

const json = (v: unknown): string => JSON.stringify(v);

// Spec "Forwarded request" → Chat targets, Block-style row; test names quote it.
describe('Block-style:', () => {
  it.each<[string, string, string | null, string]>([
    ['an object, pretty-printed in a code block', json({ a: 1 }), 'application/json', '```\n{\n  "a": 1\n}\n```'],
    ['a JSON string, as itself', json('deployed'), 'application/json', 'deployed'],
    ['a text payload, as itself', 'plain *words*', 'text/plain', 'plain *words*'],
    ['an XML payload, as its text (escaped)', '<a>1</a>', 'application/xml', '&lt;a&gt;1&lt;/a&gt;'],
    ['a form payload, as its text', 'a=1&b=2', 'application/x-www-form-urlencoded', 'a=1&amp;b=2'],
  ])('by default the payload is placed in the text field: %s', (_n, body, type, text) => {
    expect(sent({}, body, type)).toEqual({ text });
  });

  it('by default, relayed text cannot ping or forge links: &, < and > are escaped', () => {
    expect(sent({}, json({ msg: '<!everyone> <@U1> <https://evil|ok> a&b' })).text).toBe(
      '```\n{\n  "msg": "&lt;!everyone&gt; &lt;@U1&gt; &lt;https://evil|ok&gt; a&amp;b"\n}\n```',
    );
  });

  it('an empty payload (format None) is sent as a visible placeholder, since Slack refuses a message without text', () => {
    expect(sent({}, null)).toEqual({ text: EMPTY_PAYLOAD_TEXT });
  });

  it.each([
    ['text', { text: 'hi *there*', username: 'x' }],
    ['blocks', { blocks: [{ type: 'section', text: { type: 'plain_text', text: '*not bold*' } }] }],
    ['attachments', { attachments: [{ color: '#f00', text: 'a' }] }],
    [
      'text, blocks and attachments together',
      { text: 'fallback', blocks: [{ type: 'divider' }], attachments: [{ text: 'a' }], unfurl_links: false },
    ],
    ['its own mrkdwn flag', { text: '*x*', mrkdwn: true }],
  ])('a payload that already has text, blocks or attachments keeps its structure: %s', (_n, payload) => {
    expect(sent({}, json(payload))).toEqual(payload);
  });

  it.each<[string, string, string, string]>([
    [
      'fields by path',
      '*{{title}}* by {{user.name}}',
      json({ title: 'Deploy', user: { name: 'ann' } }),
      '*Deploy* by ann',
    ],
    ['a missing field → empty', 'x{{gone}}y', json({}), 'xy'],
    [
      'values are escaped, the template text is not',
      '<!here> {{msg}}',
      json({ msg: '<!channel> & co' }),
      '<!here> &lt;!channel&gt; &amp; co',
    ],
  ])('a custom message template may be enabled: %s', (_n, template, body, text) => {
    expect(sent({ template }, body)).toEqual({ text });
  });

  it('a configured template wins over a payload with text/blocks (the operator chose it)', () => {
    expect(sent({ template: 'T: {{text}}' }, json({ text: 'hi', blocks: [] }))).toEqual({ text: 'T: hi' });
  });

  it.each<[string, boolean, string, Record<string, unknown>]>([
    [
      'markup on: the chat service markup applies (no mrkdwn flag sent)',
      true,
      json({ text: '*bold*' }),
      { text: '*bold*' },
    ],
    ['markup off: mrkdwn false is sent', false, json({ text: '*bold*' }), { text: '*bold*', mrkdwn: false }],
    [
      'markup off: the default JSON text has no code fence',
      false,
      json({ a: 1 }),
      { text: '{\n  "a": 1\n}', mrkdwn: false },
    ],
    [
      'markup off: a payload mrkdwn value is kept',
      false,
      json({ text: '*x*', mrkdwn: true }),
      { text: '*x*', mrkdwn: true },
    ],
  ])("the chat service's own markup applies — %s", (_n, markup, body, expected) => {
    expect(sent({ markup }, body)).toEqual(expected);
  });

  it("with blocks, each block's text.type controls formatting (the markup switch does not rewrite blocks)", () => {
    const blocks = [
      { type: 'section', text: { type: 'mrkdwn', text: '*bold*' } },
      { type: 'section', text: { type: 'plain_text', text: '*literal*' } },
    ];
    expect(sent({ markup: false }, json({ blocks }))).toEqual({ blocks, mrkdwn: false });
  });
});

describe('Block-style request', () => {
  it('POSTs JSON to the webhook URL unchanged', () => {
    const req = blockChatKind.buildRequest(base, delivery(json({ a: 1 })));
    expect(req.url).toBe(base.url);
    expect(req.headers['content-type']).toMatch(/^application\/json/);
  });

  it('is registered as block_chat on the chat channel', () => {
    expect(blockChatKind.kind).toBe('block_chat');
    expect(blockChatKind.channel).toBe('chat');
  });
});
