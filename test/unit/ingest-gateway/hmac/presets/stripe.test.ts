import type { InboundAuthSetting } from '@relay/endpoints';
import Stripe from 'stripe';
import type { InboundRequest } from '../../../../../services/ingest-gateway/src/domain/auth/request';
import { verifyInbound } from '../../../../../services/ingest-gateway/src/domain/auth/verify';

const stripe = new Stripe('sk_test_relay');
const SECRET = 'whsec_stripe_current';
const NOW = new Date('2025-06-01T12:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;
const BODY = '{"id":"evt_1","object":"event","type":"payment_intent.succeeded"}';
const setting = (extra: Partial<{ tolerance_seconds: number }> = {}): InboundAuthSetting => ({
  type: 'HMAC',
  preset: 'stripe',
  secrets: [SECRET],
  ...extra,
});

function signed(header: string, body = BODY): InboundRequest {
  return {
    method: 'POST',
    url: 'https://relay.example/relay/ep_1',
    headers: { 'stripe-signature': header },
    rawBody: Buffer.from(body),
  };
}
const header = (timestamp: number, opts: { secret?: string; scheme?: string } = {}): string =>
  stripe.webhooks.generateTestHeaderString({
    payload: BODY,
    secret: opts.secret ?? SECRET,
    timestamp,
    ...(opts.scheme ? { scheme: opts.scheme } : {}),
  });

describe('HMAC preset stripe', () => {
  test.each([
    ['a timestamp 300 s old passes (SDK default tolerance)', NOW_S - 300, { ok: true }],
    ['a timestamp 301 s old fails', NOW_S - 301, { ok: false, reason: 'timestamp outside tolerance' }],
    ['a timestamp 301 s in the future fails', NOW_S + 301, { ok: false, reason: 'timestamp outside tolerance' }],
  ])('%s', (_rule, timestamp, expected) => {
    expect(verifyInbound(setting(), signed(header(timestamp)), NOW)).toEqual(expected);
  });

  test('tolerance_seconds overrides the window: 301 s old passes with 600', () => {
    expect(verifyInbound(setting({ tolerance_seconds: 600 }), signed(header(NOW_S - 301)), NOW)).toEqual({ ok: true });
  });

  test('several v1 signatures (Stripe rolling a secret): passes when any one matches', () => {
    const genuine = header(NOW_S);
    const other = header(NOW_S, { secret: 'whsec_other' }).split(',')[1] ?? '';
    expect(verifyInbound(setting(), signed(genuine.replace(',', `,${other},`)), NOW)).toEqual({ ok: true });
  });

  test('only v1 counts: a v0-scheme signature is not accepted', () => {
    expect(verifyInbound(setting(), signed(header(NOW_S, { scheme: 'v0' })), NOW)).toEqual({
      ok: false,
      reason: 'malformed stripe-signature header',
    });
  });

  test('a header without t= is malformed', () => {
    const withoutT = header(NOW_S).replace(/^t=\d+,/, '');
    expect(verifyInbound(setting(), signed(withoutT), NOW)).toEqual({
      ok: false,
      reason: 'malformed stripe-signature header',
    });
  });

  test('a header we accept is accepted by stripe.webhooks.constructEvent too', () => {
    const now = new Date();
    const h = header(Math.floor(now.getTime() / 1000));
    expect(verifyInbound(setting(), signed(h), now)).toEqual({ ok: true });
    expect(stripe.webhooks.constructEvent(BODY, h, SECRET).id).toBe('evt_1');
  });
});
