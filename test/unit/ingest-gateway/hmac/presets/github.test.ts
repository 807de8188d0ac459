import { createHmac } from 'node:crypto';
import { sign, verify } from '@octokit/webhooks-methods';
import type { InboundAuthSetting } from '@relay/endpoints';
import type { InboundRequest } from '../../../../../services/ingest-gateway/src/domain/auth/request';
import { verifyInbound } from '../../../../../services/ingest-gateway/src/domain/auth/verify';

const SECRET = 'gh-secret-current';
const BODY = '{"action":"opened","number":1}';
const NOW = new Date('2025-06-01T12:00:00.000Z');
const setting: InboundAuthSetting = { type: 'HMAC', preset: 'github', secrets: [SECRET] };
const req = (headers: Record<string, string>): InboundRequest => ({
  method: 'POST',
  url: 'https://relay.example/relay/ep_1',
  headers,
  rawBody: Buffer.from(BODY),
});

describe('HMAC preset github', () => {
  test('only the legacy SHA-1 X-Hub-Signature header fails: SHA-1 is not accepted', () => {
    const sha1 = `sha1=${createHmac('sha1', SECRET).update(BODY).digest('hex')}`;
    expect(verifyInbound(setting, req({ 'x-hub-signature': sha1 }), NOW)).toEqual({
      ok: false,
      reason: 'missing x-hub-signature-256 header',
    });
  });

  test('a signature without the "sha256=" prefix is malformed', async () => {
    const bare = (await sign(SECRET, BODY)).slice('sha256='.length);
    expect(verifyInbound(setting, req({ 'x-hub-signature-256': bare }), NOW)).toEqual({
      ok: false,
      reason: 'malformed x-hub-signature-256 header',
    });
  });

  test('upper-case hex digits verify (hex is case-insensitive)', async () => {
    const upper = `sha256=${(await sign(SECRET, BODY)).slice('sha256='.length).toUpperCase()}`;
    expect(verifyInbound(setting, req({ 'x-hub-signature-256': upper }), NOW)).toEqual({ ok: true });
  });

  test('a signature we accept is accepted by @octokit/webhooks-methods verify too', async () => {
    const signature = await sign(SECRET, BODY);
    expect(verifyInbound(setting, req({ 'x-hub-signature-256': signature }), NOW)).toEqual({ ok: true });
    await expect(verify(SECRET, BODY, signature)).resolves.toBe(true);
  });
});
