import { createHmac } from 'node:crypto';
import type { InboundAuthSetting } from '@relay/endpoints';
import type { InboundRequest } from '../../../../../services/ingest-gateway/src/domain/auth/request';
import { verifyInbound } from '../../../../../services/ingest-gateway/src/domain/auth/verify';

const SECRET = 'lin_wh_current';
const NOW = new Date('2025-06-01T12:00:00.000Z');
const NOW_MS = NOW.getTime();
const setting: InboundAuthSetting = { type: 'HMAC', preset: 'linear', secrets: [SECRET] };

function req(body: string, headerTs?: number): InboundRequest {
  const headers: Record<string, string> = {
    'linear-signature': createHmac('sha256', SECRET).update(body).digest('hex'),
  };
  if (headerTs !== undefined) headers['linear-timestamp'] = String(headerTs);
  return { method: 'POST', url: 'https://relay.example/relay/ep_1', headers, rawBody: Buffer.from(body) };
}
const body = (webhookTimestamp?: number): string =>
  JSON.stringify({ action: 'create', type: 'Issue', ...(webhookTimestamp === undefined ? {} : { webhookTimestamp }) });

describe('HMAC preset linear', () => {
  test.each([
    ['a linear-timestamp (ms) 60 s old passes', NOW_MS - 60_000, { ok: true }],
    [
      'a linear-timestamp (ms) 61 s old fails (60 s window)',
      NOW_MS - 61_000,
      { ok: false, reason: 'timestamp outside tolerance' },
    ],
  ])('%s', (_rule, ts, expected) => {
    expect(verifyInbound(setting, req(body(), ts), NOW)).toEqual(expected);
  });

  test('the signed body webhookTimestamp (ms) is enough without the header', () => {
    expect(verifyInbound(setting, req(body(NOW_MS - 1000)), NOW)).toEqual({ ok: true });
  });

  test('a body webhookTimestamp 61 s old fails even with a fresh linear-timestamp header (the header is not signed)', () => {
    expect(verifyInbound(setting, req(body(NOW_MS - 61_000), NOW_MS), NOW)).toEqual({
      ok: false,
      reason: 'timestamp outside tolerance',
    });
  });

  test('neither the header nor the body field: fails as missing linear-timestamp', () => {
    expect(verifyInbound(setting, req(body()), NOW)).toEqual({ ok: false, reason: 'missing linear-timestamp header' });
  });
});
