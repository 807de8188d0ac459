import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import { PayloadError } from '../kind';
import type { TargetKind } from '../kind';
import { createBlockChatKind } from './block_chat';
import { createEmbedChatKind } from './embed_chat';
import { MAX_PAYLOAD_DEPTH, exceedsDepth } from './template';
import { createWebhookKind } from './webhook';
import { jsonDelivery } from './delivery.fixture';

/*
 * Every place on the delivery side that serialises a payload is guarded, so a
 * deeply nested JSON payload becomes a PayloadError (a recorded permanent failure, see
 * services/deliverer handle.test.ts) instead of a RangeError thrown on every redelivery.
 */
const secrets = createSecretBox(`k:${randomBytes(32).toString('base64')}`);
const embedChatKind = createEmbedChatKind({ secrets });
const blockChatKind = createBlockChatKind({ secrets });
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

const delivery = (body: string, kind: string) => jsonDelivery(kind, body);

const CHAT: Array<[string, TargetKind, Record<string, unknown>]> = [
  ['embed_chat, default content', embedChatKind, { url: 'https://discord.com/api/webhooks/1/tok', name: 'n' }],
  [
    'embed_chat, with a template {{.}}',
    embedChatKind,
    { url: 'https://discord.com/api/webhooks/1/tok', name: 'n', template: 'got {{.}}' },
  ],
  [
    'block_chat, default text (markup on)',
    blockChatKind,
    { url: 'https://hooks.slack.com/services/T000/B000/secret123', name: 'n', markup: true },
  ],
  [
    'block_chat, default text (markup off)',
    blockChatKind,
    { url: 'https://hooks.slack.com/services/T000/B000/secret123', name: 'n', markup: false },
  ],
  [
    'block_chat, with a template {{.}}',
    blockChatKind,
    { url: 'https://hooks.slack.com/services/T000/B000/secret123', name: 'n', markup: true, template: 'got {{.}}' },
  ],
];

describe('a JSON payload nested too deeply for a chat message', () => {
  it.each(CHAT)('%s: a 10⁵-deep payload is a PayloadError PAYLOAD_TOO_DEEP, not a RangeError', (_n, kind, config) => {
    let thrown: unknown;
    try {
      kind.buildRequest(config, delivery(nested(100_000), kind.kind));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(PayloadError);
    expect(thrown).toMatchObject({
      code: 'PAYLOAD_TOO_DEEP',
      message: `the JSON payload is nested deeper than ${MAX_PAYLOAD_DEPTH} levels; no chat message can be built from it`,
    });
  });

  it.each(CHAT)('%s: a native-looking payload nested too deeply inside is refused the same way', (_n, kind, config) => {
    const native = `{"content":"x","text":"x","extra":${nestedObject(MAX_PAYLOAD_DEPTH)}}`;
    expect(() => kind.buildRequest(config, delivery(native, kind.kind))).toThrow(PayloadError);
  });

  it.each(CHAT)(`%s: exactly ${MAX_PAYLOAD_DEPTH} levels still becomes a message`, (_n, kind, config) => {
    expect(() =>
      JSON.parse(kind.buildRequest(config, delivery(nested(MAX_PAYLOAD_DEPTH), kind.kind)).body.toString('utf8')),
    ).not.toThrow();
  });

  it('the webhook kind sends the payload bytes as given, whatever their depth: it never serialises the payload', () => {
    const kind = createWebhookKind({ secrets });
    const saved = kind.validateConfig({ url: 'https://example.com/hook' });
    if (!saved.ok) throw new Error('invalid config');
    const body = nested(100_000);
    expect(kind.buildRequest(saved.value, delivery(body, 'webhook')).body.toString('utf8')).toBe(body);
  });

  it('exceedsDepth counts object and array levels without recursion', () => {
    expect(exceedsDepth(1, 0)).toBe(false);
    expect(exceedsDepth({}, 0)).toBe(true);
    expect(exceedsDepth(JSON.parse(nested(3)), 3)).toBe(false);
    expect(exceedsDepth(JSON.parse(nestedObject(4)), 3)).toBe(true);
    expect(exceedsDepth(JSON.parse(nested(1_000_000)), MAX_PAYLOAD_DEPTH)).toBe(true);
  });
});
