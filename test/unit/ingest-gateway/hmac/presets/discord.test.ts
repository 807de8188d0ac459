import { generateKeyPairSync, sign } from 'node:crypto';
import type { InboundAuthSetting } from '@relay/endpoints';
import { verifyKey } from 'discord-interactions';
import type { InboundRequest } from '../../../../../services/ingest-gateway/src/domain/auth/request';
import { verifyInbound } from '../../../../../services/ingest-gateway/src/domain/auth/verify';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;
const BODY = '{"type":1,"id":"123","application_id":"456"}';
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PUBLIC_HEX = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString('hex');

function req(ts: string, body = BODY, signedBody = body): InboundRequest {
  const signature = sign(null, Buffer.from(ts + signedBody), privateKey).toString('hex');
  return {
    method: 'POST',
    url: 'https://relay.example/relay/ep_1',
    headers: { 'x-signature-ed25519': signature, 'x-signature-timestamp': ts },
    rawBody: Buffer.from(body),
  };
}
const setting = (extra: { tolerance_seconds?: number } = {}): InboundAuthSetting => ({
  type: 'HMAC',
  preset: 'discord',
  secrets: [PUBLIC_HEX],
  ...extra,
});

describe('HMAC preset discord (Ed25519)', () => {
  test('discord-interactions verifyKey agrees: accepts what we accept', async () => {
    const r = req(String(NOW_S));
    expect(verifyInbound(setting(), r, NOW)).toEqual({ ok: true });
    await expect(verifyKey(BODY, String(r.headers['x-signature-ed25519']), String(NOW_S), PUBLIC_HEX)).resolves.toBe(
      true,
    );
  });

  test('discord-interactions verifyKey agrees: both reject a changed body', async () => {
    const r = req(String(NOW_S), BODY.replace('123', '124'), BODY);
    expect(verifyInbound(setting(), r, NOW)).toEqual({ ok: false, reason: 'signature mismatch' });
    await expect(
      verifyKey(r.rawBody, String(r.headers['x-signature-ed25519']), String(NOW_S), PUBLIC_HEX),
    ).resolves.toBe(false);
  });

  test('the timestamp is signed: another X-Signature-Timestamp fails', () => {
    const r = req(String(NOW_S));
    expect(
      verifyInbound(setting(), { ...r, headers: { ...r.headers, 'x-signature-timestamp': String(NOW_S + 1) } }, NOW),
    ).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  test('no replay window by default (Discord documents none): an hour-old timestamp passes', () => {
    expect(verifyInbound(setting(), req(String(NOW_S - 3600)), NOW)).toEqual({ ok: true });
  });

  test('with tolerance_seconds 300, a timestamp 301 s old fails', () => {
    expect(verifyInbound(setting({ tolerance_seconds: 300 }), req(String(NOW_S - 301)), NOW)).toEqual({
      ok: false,
      reason: 'timestamp outside tolerance',
    });
  });

  test('a signature that is not 64 bytes of hex is malformed', () => {
    const r = req(String(NOW_S));
    expect(verifyInbound(setting(), { ...r, headers: { ...r.headers, 'x-signature-ed25519': 'abcd' } }, NOW)).toEqual({
      ok: false,
      reason: 'malformed x-signature-ed25519 header',
    });
  });
});
