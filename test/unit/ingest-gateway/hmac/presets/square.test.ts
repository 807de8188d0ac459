import { createHmac } from 'node:crypto';
import type { InboundAuthSetting } from '@relay/endpoints';
import type { InboundRequest } from '../../../../../services/ingest-gateway/src/domain/auth/request';
import { verifyInbound } from '../../../../../services/ingest-gateway/src/domain/auth/verify';

const KEY = 'square-signature-key-1';
const NOW = new Date('2025-06-01T12:00:00.000Z');
const BODY = '{"merchant_id":"M1","type":"payment.updated","event_id":"e1"}';
const setting: InboundAuthSetting = { type: 'HMAC', preset: 'square', secrets: [KEY] };
const sig = (url: string): string =>
  createHmac('sha256', KEY)
    .update(url + BODY)
    .digest('base64');
const req = (url: string, signature: string): InboundRequest => ({
  method: 'POST',
  url,
  headers: { 'x-square-hmacsha256-signature': signature },
  rawBody: Buffer.from(BODY),
});

describe('HMAC preset square', () => {
  test('the notification URL is signed: a different path fails', () => {
    expect(
      verifyInbound(setting, req('https://relay.example/relay/ep_2', sig('https://relay.example/relay/ep_1')), NOW),
    ).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  test('the query string is part of the URL: a request without it fails', () => {
    expect(
      verifyInbound(setting, req('https://relay.example/relay/ep_1', sig('https://relay.example/relay/ep_1?a=1')), NOW),
    ).toMatchObject({ ok: false });
  });

  test('signed with :443, received without a port: passes (default port tried both ways)', () => {
    expect(
      verifyInbound(setting, req('https://relay.example/relay/ep_1', sig('https://relay.example:443/relay/ep_1')), NOW),
    ).toEqual({ ok: true });
  });

  test('the legacy SHA-1 x-square-signature header alone fails', () => {
    const legacy: InboundRequest = {
      method: 'POST',
      url: 'https://relay.example/relay/ep_1',
      headers: { 'x-square-signature': 'abc=' },
      rawBody: Buffer.from(BODY),
    };
    expect(verifyInbound(setting, legacy, NOW)).toEqual({
      ok: false,
      reason: 'missing x-square-hmacsha256-signature header',
    });
  });
});
