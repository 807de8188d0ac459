import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { verifyKey } from 'discord-interactions';
import { IngestHarness } from './harness';
import type { GatewayInstance } from './harness';

/**
 * On the real gateway app, RabbitMQ, Redis and
 * FerretDB: the provider gets its documented answer over HTTP (status, content type, exact
 * body, headers), the activity log gets a HANDSHAKE_ANSWERED row, and nothing is delivered.
 */
let h: IngestHarness;
let gw: GatewayInstance;

beforeAll(async () => {
  h = await IngestHarness.start('handshakes');
  gw = await h.gateway();
});

afterAll(async () => {
  await h?.stop();
});

async function call(
  endpointId: string,
  init: { method?: string; query?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const res = await fetch(`${gw.url}/relay/${endpointId}${init.query ? `?${init.query}` : ''}`, {
    method: init.method ?? 'POST',
    headers: init.headers,
    body: init.body,
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    nosniff: res.headers.get('x-content-type-options'),
    text: await res.text(),
  };
}

describe('handshakes over HTTP', () => {
  it('Slack url_verification, signed: 200 {"challenge"}; a HANDSHAKE_ANSWERED row; no delivery', async () => {
    const secret = 'slack-signing-secret-int';
    const id = await h.endpoint(await h.account(), {
      inbound_auth: { type: 'HMAC', preset: 'slack', secrets: [h.seal(secret)] },
    });
    const body = JSON.stringify({ token: 't', challenge: 'c-8f2e', type: 'url_verification' });
    const ts = String(Math.floor(Date.now() / 1000));
    const sig = `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;
    const answer = await call(id, {
      headers: { 'content-type': 'application/json', 'x-slack-request-timestamp': ts, 'x-slack-signature': sig },
      body,
    });
    expect([answer.status, answer.type, JSON.parse(answer.text)]).toEqual([
      200,
      'application/json; charset=utf-8',
      { challenge: 'c-8f2e' },
    ]);
    const [row] = await h.waitForRows(id, 1);
    expect([row?.outcome, row?.reason, row?.target_count]).toEqual([
      'HANDSHAKE_ANSWERED',
      'Slack url_verification answered',
      0,
    ]);
    await h.settle(gw);
    expect(h.deliveriesOf(id)).toEqual([]);
  });

  it('Meta GET hub.challenge with the verify_token: 200 text/plain challenge, nosniff; a wrong token: 401', async () => {
    const id = await h.endpoint(await h.account(), {
      inbound_auth: {
        type: 'HMAC',
        preset: 'instagram',
        secrets: [h.seal('app-secret')],
        verify_token: h.seal('verify-me'),
      },
    });
    const ok = await call(id, {
      method: 'GET',
      query: 'hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=verify-me',
    });
    expect([ok.status, ok.type, ok.nosniff, ok.text]).toEqual([
      200,
      'text/plain; charset=utf-8',
      'nosniff',
      '1158201444',
    ]);
    const wrong = await call(id, {
      method: 'GET',
      query: 'hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=guess',
    });
    expect([wrong.status, JSON.parse(wrong.text).code]).toEqual([401, 'auth_failed']);
    const rows = await h.waitForRows(id, 2);
    expect(rows.map((r) => [r.outcome, r.reason])).toEqual([
      ['HANDSHAKE_ANSWERED', 'Meta hub.challenge answered'],
      ['AUTH_FAILED', 'wrong hub.verify_token'],
    ]);
  });

  it('Discord PING, Ed25519-signed: 200 application/json {"type":1}; a HANDSHAKE_ANSWERED row; no delivery; badly signed: 401', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const publicHex = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString('hex');
    const id = await h.endpoint(await h.account(), {
      inbound_auth: { type: 'HMAC', preset: 'discord', secrets: [h.seal(publicHex)] },
    });
    const body = JSON.stringify({ id: '1317140528478060624', application_id: '1095048101617627216', type: 1 });
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(ts + body), privateKey).toString('hex');
    // the signature is one Discord's own library accepts
    await expect(verifyKey(body, signature, ts, publicHex)).resolves.toBe(true);
    const headers = {
      'content-type': 'application/json',
      'x-signature-ed25519': signature,
      'x-signature-timestamp': ts,
    };
    const pong = await call(id, { headers, body });
    expect([pong.status, pong.type, pong.text]).toEqual([200, 'application/json; charset=utf-8', '{"type":1}']);
    const forged = await call(id, { headers: { ...headers, 'x-signature-ed25519': 'ab'.repeat(64) }, body });
    expect([forged.status, JSON.parse(forged.text).code]).toEqual([401, 'auth_failed']);
    const unsigned = await call(id, { headers: { 'content-type': 'application/json' }, body });
    expect(unsigned.status).toBe(401);
    const rows = await h.waitForRows(id, 3);
    expect(rows.map((r) => [r.outcome, r.reason])).toEqual([
      ['HANDSHAKE_ANSWERED', 'Discord PING answered'],
      ['AUTH_FAILED', expect.any(String)],
      ['AUTH_FAILED', expect.any(String)],
    ]);
    await h.settle(gw);
    expect(h.deliveriesOf(id)).toEqual([]);
  });
});
