import { randomBytes } from 'node:crypto';
import { DELIVERY_V1 } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { createSecretBox } from '@relay/secrets';
import { TargetConfigError } from '../kind';
import type { TargetKind } from '../kind';
import { createBlockChatKind } from './block_chat';
import { createEmbedChatKind } from './embed_chat';

/*
 * A chat webhook URL holds the platform's token, so it is sealed at rest like
 * every other target credential, opened only to send and to draw its masked view, and rows
 * stored before sealing (plaintext) keep working.
 */
const key = () => `k1:${randomBytes(32).toString('base64')}`;
const box = createSecretBox(key());
const otherBox = createSecretBox(key());

const DISCORD_TOKEN = 'DiscordT0ken_secret-value';
const SLACK_SECRET = 'slackSecretValue123456';
const KINDS: Array<[string, (deps: { secrets: typeof box }) => TargetKind, string, string, string]> = [
  [
    'embed_chat',
    createEmbedChatKind,
    `https://discord.com/api/webhooks/123456/${DISCORD_TOKEN}?thread_id=9`,
    DISCORD_TOKEN,
    'https://discord.com/api/webhooks/123456/****?thread_id=9',
  ],
  [
    'block_chat',
    createBlockChatKind,
    `https://hooks.slack.com/services/T0001/B0001/${SLACK_SECRET}`,
    SLACK_SECRET,
    'https://hooks.slack.com/services/T0001/B0001/****',
  ],
];

function delivery(kind: string): DeliveryMessageV1 {
  return {
    type: DELIVERY_V1,
    event_id: 'ev1',
    delivery_id: 'dl1',
    attempt: 1,
    account_id: 'acc',
    endpoint_id: 'ep',
    target_id: 'tg',
    target_kind: kind,
    received_at: '2025-01-01T00:00:00.000Z',
    request: { method: 'POST', source_ip: '203.0.113.1', headers: {}, query: '' },
    payload: {
      content_type: 'application/json',
      body_base64: Buffer.from('{"text":"hi","content":"hi"}').toString('base64'),
    },
  };
}

describe.each(KINDS)('%s: the webhook URL is a credential, sealed at rest', (kindName, create, url, secret, masked) => {
  const kind = create({ secrets: box });
  const saved = kind.validateConfig({ url, name: 'alerts' });
  if (!saved.ok) throw new Error(`invalid: ${JSON.stringify(saved.errors)}`);
  const stored = saved.value as { url: string };

  it('the stored config holds a sealed value (enc:v1:…), never the URL or its token', () => {
    expect(stored.url).toMatch(/^enc:v1:k1:/);
    expect(JSON.stringify(saved.value)).not.toContain(secret);
    expect(box.decrypt(stored.url)).toBe(url);
  });

  it('each attempt opens it: the request goes to the real URL', () => {
    expect(kind.buildRequest(saved.value, delivery(kindName)).url).toContain(secret);
  });

  it(`the API view shows host and ids with the token masked: ${masked}`, () => {
    const shown = kind.publicConfig(saved.value);
    expect(shown.url).toBe(masked);
    expect(JSON.stringify(shown)).not.toContain(secret);
    expect(JSON.stringify(shown)).not.toContain('enc:v1');
  });

  it('a row stored before sealing (plaintext URL) is still delivered and still shown masked', () => {
    const legacy = { ...saved.value, url };
    expect(kind.buildRequest(legacy, delivery(kindName)).url).toContain(secret);
    expect(kind.publicConfig(legacy).url).toBe(masked);
  });

  it('a URL no configured key opens fails the attempt as TargetConfigError SECRET_UNREADABLE and shows as ****', () => {
    const other = create({ secrets: otherBox });
    expect(() => other.buildRequest(saved.value, delivery(kindName))).toThrow(TargetConfigError);
    expect(() => other.buildRequest(saved.value, delivery(kindName))).toThrow(
      expect.objectContaining({ code: 'SECRET_UNREADABLE' }),
    );
    expect(other.publicConfig(saved.value).url).toBe('****');
  });
});
