import { createHmac } from 'node:crypto';
import { Paddle } from '@paddle/paddle-node-sdk';
import type { InboundAuthSetting } from '@relay/endpoints';
import type { InboundRequest } from '../../../../../services/ingest-gateway/src/domain/auth/request';
import { verifyInbound } from '../../../../../services/ingest-gateway/src/domain/auth/verify';

const paddle = new Paddle('pdl_sdbx_apikey_relay_test'); // only its webhook helper is used; no API call is made
const SECRET = 'pdl_ntfset_01_current';
const NOW = new Date('2025-06-01T12:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;
const BODY = '{"event_id":"evt_01","event_type":"subscription.created","data":{}}';
const h1 = (ts: number, secret = SECRET, body = BODY): string =>
  createHmac('sha256', secret).update(`${ts}:${body}`).digest('hex');
const setting = (extra: { tolerance_seconds?: number } = {}): InboundAuthSetting => ({
  type: 'HMAC',
  preset: 'paddle',
  secrets: [SECRET],
  ...extra,
});
const req = (header: string, body = BODY): InboundRequest => ({
  method: 'POST',
  url: 'https://relay.example/relay/ep_1',
  headers: { 'paddle-signature': header },
  rawBody: Buffer.from(body),
});

describe('HMAC preset paddle', () => {
  test.each([
    ['a timestamp 5 s old passes (Paddle SDK window)', NOW_S - 5, { ok: true }],
    ['a timestamp 6 s old fails', NOW_S - 6, { ok: false, reason: 'timestamp outside tolerance' }],
  ])('%s', (_rule, ts, expected) => {
    expect(verifyInbound(setting(), req(`ts=${ts};h1=${h1(ts)}`), NOW)).toEqual(expected);
  });

  test('tolerance_seconds 60 lets a 30 s old timestamp pass', () => {
    const ts = NOW_S - 30;
    expect(verifyInbound(setting({ tolerance_seconds: 60 }), req(`ts=${ts};h1=${h1(ts)}`), NOW)).toEqual({ ok: true });
  });

  test('several h1 signatures (Paddle rotating a secret): passes when any one matches', () => {
    expect(verifyInbound(setting(), req(`ts=${NOW_S};h1=${h1(NOW_S, 'old-secret')};h1=${h1(NOW_S)}`), NOW)).toEqual({
      ok: true,
    });
  });

  test('a header without ts is malformed', () => {
    expect(verifyInbound(setting(), req(`h1=${h1(NOW_S)}`), NOW)).toEqual({
      ok: false,
      reason: 'malformed paddle-signature header',
    });
  });

  test('the Paddle SDK (paddle.webhooks.isSignatureValid) agrees: accepts what we accept, rejects a changed body', async () => {
    const now = new Date();
    const ts = Math.floor(now.getTime() / 1000);
    const header = `ts=${ts};h1=${h1(ts)}`;
    const tampered = BODY.replace('evt_01', 'evt_02');
    await expect(paddle.webhooks.isSignatureValid(BODY, SECRET, header)).resolves.toBe(true);
    expect(verifyInbound(setting(), req(header), now)).toEqual({ ok: true });
    await expect(paddle.webhooks.isSignatureValid(tampered, SECRET, header)).resolves.toBe(false);
    expect(verifyInbound(setting(), req(header, tampered), now)).toEqual({ ok: false, reason: 'signature mismatch' });
  });
});
