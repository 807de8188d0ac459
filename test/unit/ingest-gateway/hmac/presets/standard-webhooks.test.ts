import type { InboundAuthSetting } from '@relay/endpoints';
import { Webhook } from 'standardwebhooks';
import type { InboundRequest } from '../../../../../services/ingest-gateway/src/domain/auth/request';
import { verifyInbound } from '../../../../../services/ingest-gateway/src/domain/auth/verify';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NOW = new Date('2025-06-01T12:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;
const BODY = '{"type":"user.created","data":{"id":"u_1"}}';

function signed(prefix: 'webhook' | 'svix', at: Date, signature?: string): InboundRequest {
  const sig = signature ?? new Webhook(SECRET).sign('msg_1', at, BODY);
  const ts = String(Math.floor(at.getTime() / 1000));
  return {
    method: 'POST',
    url: 'https://relay.example/relay/ep_1',
    headers: { [`${prefix}-id`]: 'msg_1', [`${prefix}-timestamp`]: ts, [`${prefix}-signature`]: sig },
    rawBody: Buffer.from(BODY),
  };
}
const setting = (preset: 'standard_webhooks' | 'svix'): InboundAuthSetting => ({
  type: 'HMAC',
  preset,
  secrets: [SECRET],
});
const secondsAgo = (s: number): Date => new Date((NOW_S - s) * 1000);

describe.each([
  ['standard_webhooks', 'webhook'],
  ['svix', 'svix'],
] as const)('HMAC preset %s', (preset, prefix) => {
  test.each([
    ['a timestamp 300 s old passes', secondsAgo(300), { ok: true }],
    ['a timestamp 301 s old fails', secondsAgo(301), { ok: false, reason: 'timestamp outside tolerance' }],
    [
      'a timestamp 301 s in the future fails (±300 s)',
      secondsAgo(-301),
      { ok: false, reason: 'timestamp outside tolerance' },
    ],
  ])('%s', (_rule, at, expected) => {
    expect(verifyInbound(setting(preset), signed(prefix, at), NOW)).toEqual(expected);
  });

  test('several space-separated signatures: passes when any v1 entry matches', () => {
    const other = new Webhook('whsec_' + Buffer.from('another key').toString('base64')).sign('msg_1', NOW, BODY);
    const genuine = new Webhook(SECRET).sign('msg_1', NOW, BODY);
    expect(verifyInbound(setting(preset), signed(prefix, NOW, `${other} v1a,c2lnbmF0dXJl ${genuine}`), NOW)).toEqual({
      ok: true,
    });
  });

  test('entries of other versions are ignored: only a v1a entry is malformed', () => {
    expect(verifyInbound(setting(preset), signed(prefix, NOW, 'v1a,c2lnbmF0dXJl'), NOW)).toEqual({
      ok: false,
      reason: `malformed ${prefix}-signature header`,
    });
  });

  test('the message id is signed: another webhook-id fails', () => {
    const req = signed(prefix, NOW);
    expect(
      verifyInbound(setting(preset), { ...req, headers: { ...req.headers, [`${prefix}-id`]: 'msg_2' } }, NOW),
    ).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  test('a secret without the whsec_ prefix is the same key', () => {
    const bare: InboundAuthSetting = { type: 'HMAC', preset, secrets: [SECRET.slice('whsec_'.length)] };
    expect(verifyInbound(bare, signed(prefix, NOW), NOW)).toEqual({ ok: true });
  });
});

test('HMAC preset standard_webhooks: a request we accept is accepted by standardwebhooks Webhook.verify too', () => {
  const now = new Date();
  const req = signed('webhook', now);
  expect(verifyInbound(setting('standard_webhooks'), req, now)).toEqual({ ok: true });
  expect(new Webhook(SECRET).verify(BODY, req.headers as Record<string, string>)).toEqual(JSON.parse(BODY));
});

test('HMAC preset svix: webhook-* headers do not satisfy the svix preset', () => {
  expect(verifyInbound(setting('svix'), signed('webhook', NOW), NOW)).toEqual({
    ok: false,
    reason: 'missing svix-signature header',
  });
});
