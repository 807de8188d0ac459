import { createHmac } from 'node:crypto';
import type { InboundAuthSetting } from '@relay/endpoints';
import type { InboundRequest } from '../../../../../services/ingest-gateway/src/domain/auth/request';
import { verifyInbound } from '../../../../../services/ingest-gateway/src/domain/auth/verify';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;

const PRESETS = [
  {
    preset: 'slack',
    signature: 'x-slack-signature',
    timestamp: 'x-slack-request-timestamp',
    body: 'token=xyz&team_id=T1&command=%2Fweather&text=94070',
  },
  {
    preset: 'zoom',
    signature: 'x-zm-signature',
    timestamp: 'x-zm-request-timestamp',
    body: '{"event":"meeting.started","payload":{"object":{"id":"1"}}}',
  },
] as const;

describe.each(PRESETS)('HMAC preset $preset (v0 scheme)', (p) => {
  const secret = `${p.preset}-signing-secret`;
  const setting: InboundAuthSetting = { type: 'HMAC', preset: p.preset, secrets: [secret] };
  const signed = (ts: string, body = p.body): InboundRequest => ({
    method: 'POST',
    url: 'https://relay.example/relay/ep_1',
    headers: {
      [p.signature]: `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`,
      [p.timestamp]: ts,
    },
    rawBody: Buffer.from(body),
  });

  test.each([
    ['a timestamp 300 s (5 min) old passes', NOW_S - 300, { ok: true }],
    ['a timestamp 301 s old fails', NOW_S - 301, { ok: false, reason: 'timestamp outside tolerance' }],
    ['a timestamp 301 s in the future fails', NOW_S + 301, { ok: false, reason: 'timestamp outside tolerance' }],
  ])('%s', (_rule, ts, expected) => {
    expect(verifyInbound(setting, signed(String(ts)), NOW)).toEqual(expected);
  });

  test('the timestamp is signed: replaying the signature with a fresh timestamp fails', () => {
    const old = signed(String(NOW_S - 3600));
    const replay = { ...old, headers: { ...old.headers, [p.timestamp]: String(NOW_S) } };
    expect(verifyInbound(setting, replay, NOW)).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  test('a non-numeric timestamp is malformed', () => {
    expect(verifyInbound(setting, signed('yesterday'), NOW)).toEqual({
      ok: false,
      reason: `malformed ${p.timestamp} header`,
    });
  });
});

test('HMAC preset zoom: an endpoint.url_validation event is verified like any event (the challenge is not answered; docs/inbound-auth.md)', () => {
  const secret = 'zoom-secret-token';
  const body = '{"event":"endpoint.url_validation","payload":{"plainToken":"qgg8vlvZRS6UYooatFL8Aw"}}';
  const ts = String(NOW_S);
  const req: InboundRequest = {
    method: 'POST',
    url: 'https://relay.example/relay/ep_1',
    headers: {
      'x-zm-signature': `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`,
      'x-zm-request-timestamp': ts,
    },
    rawBody: Buffer.from(body),
  };
  expect(verifyInbound({ type: 'HMAC', preset: 'zoom', secrets: [secret] }, req, NOW)).toEqual({ ok: true });
});
