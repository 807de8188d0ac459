import { createHash, createHmac } from 'node:crypto';
import type { InboundAuthSetting } from '@relay/endpoints';
import { ingest } from '../pipeline/ingest';
import type { IngestAnswer } from '../pipeline/ingest';
import { body, fakePorts, request, view } from '../pipeline/test-helpers';

/**
 * Each provider's documented answer, after the
 * provider's own verification where it signs the handshake; a row with its own outcome; never
 * delivered. Secrets in test records are stored as `sealed:<plain>` (test-helpers).
 */

const NOW = new Date('2025-03-10T12:00:00Z');
const NOW_S = String(NOW.getTime() / 1000);

function hmacSetting(preset: string, secrets: string[], extra: Record<string, unknown> = {}): InboundAuthSetting {
  return { type: 'HMAC', preset, secrets: secrets.map((s) => `sealed:${s}`), ...extra } as InboundAuthSetting;
}

function refusal(answer: IngestAnswer) {
  if (answer.accepted) throw new Error('expected the request to end before acceptance');
  return answer.rejection;
}

const hex = (secret: string, ...parts: string[]): string =>
  parts.reduce((h, p) => h.update(p), createHmac('sha256', secret)).digest('hex');

describe('Slack url_verification', () => {
  const secret = 'slack-signing-secret';
  const v = () => view({ inbound_auth: hmacSetting('slack', [secret]) });
  const signed = (text: string, key = secret) =>
    request({
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': NOW_S,
        'x-slack-signature': `v0=${hex(key, `v0:${NOW_S}:`, text)}`,
      },
    });
  const challenge = JSON.stringify({
    token: 't',
    challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
    type: 'url_verification',
  });

  it('a signed challenge is answered 200 with {challenge}, recorded as HANDSHAKE_ANSWERED, not delivered', async () => {
    const f = fakePorts(v());
    const r = refusal(await ingest(f.ports, signed(challenge), body(challenge)));
    expect([r.status, r.outcome, r.reply?.contentType]).toEqual([
      200,
      'HANDSHAKE_ANSWERED',
      'application/json; charset=utf-8',
    ]);
    expect(JSON.parse(r.reply?.body ?? '')).toEqual({
      challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
    });
    expect(f.rows.map((row) => [row.outcome, row.reason])).toEqual([
      ['HANDSHAKE_ANSWERED', 'Slack url_verification answered'],
    ]);
    expect(f.published).toEqual([]);
  });

  it('a challenge with a forged signature is AUTH_FAILED, not answered', async () => {
    const f = fakePorts(v());
    const r = refusal(await ingest(f.ports, signed(challenge, 'not-the-secret'), body(challenge)));
    expect([r.status, r.outcome, r.reply]).toEqual([401, 'AUTH_FAILED', undefined]);
  });

  it('an ordinary signed event is accepted and delivered as before', async () => {
    const event = JSON.stringify({ type: 'event_callback', event_id: 'Ev1' });
    const f = fakePorts(v());
    expect(await ingest(f.ports, signed(event), body(event))).toMatchObject({ accepted: true, targetCount: 1 });
  });

  it('a test request from the management API is never taken for a handshake', async () => {
    const f = fakePorts(v());
    expect(await ingest(f.ports, { ...signed(challenge), test: true }, body(challenge))).toMatchObject({
      accepted: true,
    });
  });
});

describe('Zoom endpoint.url_validation', () => {
  const event = JSON.stringify({
    event: 'endpoint.url_validation',
    payload: { plainToken: 'qgg8vlvZRS6UYooatFL8Aw' },
    event_ts: 1,
  });
  const signed = (key: string) =>
    request({
      headers: {
        'content-type': 'application/json',
        'x-zm-request-timestamp': NOW_S,
        'x-zm-signature': `v0=${hex(key, `v0:${NOW_S}:`, event)}`,
      },
    });

  it.each([
    ['the current secret', 'zoom-secret-1'],
    ['the rotation secret (the slot that signed is the one used)', 'zoom-secret-2'],
  ])('signed with %s: {plainToken, encryptedToken = hex HMAC-SHA256(secret, plainToken)}', async (_name, key) => {
    const f = fakePorts(view({ inbound_auth: hmacSetting('zoom', ['zoom-secret-1', 'zoom-secret-2']) }));
    const r = refusal(await ingest(f.ports, signed(key), body(event)));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.reply?.body ?? '')).toEqual({
      plainToken: 'qgg8vlvZRS6UYooatFL8Aw',
      encryptedToken: hex(key, 'qgg8vlvZRS6UYooatFL8Aw'),
    });
  });

  it('unsigned: AUTH_FAILED', async () => {
    const f = fakePorts(view({ inbound_auth: hmacSetting('zoom', ['zoom-secret-1']) }));
    expect(refusal(await ingest(f.ports, request(), body(event))).outcome).toBe('AUTH_FAILED');
  });
});

describe('Twitch webhook_callback_verification', () => {
  const secret = 'twitch-subscription-secret';
  const text = JSON.stringify({ challenge: 'pogchamp-kappa-360noscope-vohiyo', subscription: { id: 'f1c2a387' } });
  const ts = '2025-03-10T12:00:00.123456789Z';
  const headers = (key: string) => ({
    'content-type': 'application/json',
    'twitch-eventsub-message-type': 'webhook_callback_verification',
    'twitch-eventsub-message-id': 'm-1',
    'twitch-eventsub-message-timestamp': ts,
    'twitch-eventsub-message-signature': `sha256=${hex(key, 'm-1', ts, text)}`,
  });

  it('signed: the raw challenge as text/plain', async () => {
    const f = fakePorts(view({ inbound_auth: hmacSetting('twitch', [secret]) }));
    const r = refusal(await ingest(f.ports, request({ headers: headers(secret) }), body(text)));
    expect([r.status, r.reply?.body, r.reply?.contentType]).toEqual([
      200,
      'pogchamp-kappa-360noscope-vohiyo',
      'text/plain; charset=utf-8',
    ]);
  });

  it('forged: AUTH_FAILED', async () => {
    const f = fakePorts(view({ inbound_auth: hmacSetting('twitch', [secret]) }));
    expect(refusal(await ingest(f.ports, request({ headers: headers('forged') }), body(text))).outcome).toBe(
      'AUTH_FAILED',
    );
  });
});

describe('Meta GET hub.challenge', () => {
  const get = (token: string) =>
    request({
      method: 'GET',
      headers: {},
      rawQuery: `hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${token}`,
    });
  const v = (extra: Record<string, unknown> = { verify_token: 'sealed:meta-verify-token' }, over = {}) =>
    view({ inbound_auth: hmacSetting('whatsapp', ['app-secret'], extra), ...over });

  it('the right verify_token: 200 with the challenge, even though the endpoint takes only POST for events', async () => {
    const f = fakePorts(v());
    const r = refusal(await ingest(f.ports, get('meta-verify-token'), body('')));
    expect([r.status, r.reply?.body, r.outcome]).toEqual([200, '1158201444', 'HANDSHAKE_ANSWERED']);
    expect(f.published).toEqual([]);
  });

  it.each([
    ['a wrong verify_token', v(), 'wrong hub.verify_token'],
    ['no verify_token configured', v({}), 'Meta subscription handshake, but the endpoint has no verify_token'],
  ])('%s: 401 AUTH_FAILED, the row says why', async (_name, endpoint, reason) => {
    const f = fakePorts(endpoint);
    const r = refusal(await ingest(f.ports, get('guess'), body('')));
    expect([r.status, r.outcome, r.reason]).toEqual([401, 'AUTH_FAILED', reason]);
  });

  it('the IP lists still run first: a blocked address gets 403, not the challenge', async () => {
    const f = fakePorts(v(undefined, { ip_access: { allow: [], deny: ['203.0.113.0/24'] } }));
    expect(refusal(await ingest(f.ports, get('meta-verify-token'), body(''))).outcome).toBe('IP_BLOCKED');
  });

  it('a GET without hub.mode=subscribe is no handshake: 405 as before', async () => {
    const f = fakePorts(v());
    expect(refusal(await ingest(f.ports, request({ method: 'GET', headers: {} }), body(''))).status).toBe(405);
  });
});

describe('Dropbox, X CRC and Microsoft Graph (unsigned handshakes)', () => {
  it('Dropbox GET ?challenge: the challenge as text with X-Content-Type-Options: nosniff', async () => {
    const f = fakePorts(view({ inbound_auth: hmacSetting('dropbox', ['app-secret']) }));
    const r = refusal(
      await ingest(f.ports, request({ method: 'GET', headers: {}, rawQuery: 'challenge=KZ8vL3Xq' }), body('')),
    );
    expect([r.status, r.reply?.body, r.reply?.headers['X-Content-Type-Options']]).toEqual([200, 'KZ8vL3Xq', 'nosniff']);
  });

  it('X GET ?crc_token: response_token = sha256= + base64 HMAC-SHA256(consumer secret, crc_token)', async () => {
    const f = fakePorts(view({ inbound_auth: hmacSetting('x', ['consumer-secret']) }));
    const r = refusal(
      await ingest(f.ports, request({ method: 'GET', headers: {}, rawQuery: 'crc_token=8e6c1f3a' }), body('')),
    );
    const expected = createHmac('sha256', 'consumer-secret').update('8e6c1f3a').digest('base64');
    expect(JSON.parse(r.reply?.body ?? '')).toEqual({ response_token: `sha256=${expected}` });
  });

  it('Graph POST ?validationToken: the decoded token as text/plain', async () => {
    const f = fakePorts(view({ inbound_auth: hmacSetting('microsoft_graph', ['client-state']) }));
    const token = 'Validation: Testing client application reachability for subscription Request-Id: 9ad5ce5a';
    const r = refusal(
      await ingest(f.ports, request({ rawQuery: `validationToken=${encodeURIComponent(token)}` }), body('')),
    );
    expect([r.status, r.reply?.body, r.reply?.contentType]).toEqual([200, token, 'text/plain; charset=utf-8']);
  });

  it('a challenge longer than 1024 characters is not echoed', async () => {
    const f = fakePorts(view({ inbound_auth: hmacSetting('dropbox', ['app-secret']) }));
    const r = refusal(
      await ingest(
        f.ports,
        request({ method: 'GET', headers: {}, rawQuery: `challenge=${'a'.repeat(1025)}` }),
        body(''),
      ),
    );
    expect(r.status).toBe(405);
  });
});

describe('eBay GET challenge_code', () => {
  const TOKEN = 'relay_ebay_verification_token_0123456789abcdef';
  const CREDENTIALS = 'Relay-Test-PRD-1a2b3c4d5-6e7f8a9b:PRD-1a2b3c4d5e6f-7a8b';
  const v = (extra: Record<string, unknown> = { verify_token: `sealed:${TOKEN}` }) =>
    view({ inbound_auth: hmacSetting('ebay', [CREDENTIALS], extra) });
  // eBay's documented answer: hex SHA-256 of challengeCode + verificationToken + endpoint, in that order
  const expected = (code: string, endpoint: string) =>
    createHash('sha256').update(`${code}${TOKEN}${endpoint}`, 'utf8').digest('hex');
  const get = (rawQuery: string) =>
    request({ method: 'GET', headers: {}, rawQuery, publicUrl: `https://relay.example/relay/ep_1?${rawQuery}` });

  it('answered 200 JSON {challengeResponse}, hashed with the URL eBay was given (without challenge_code)', async () => {
    const f = fakePorts(v());
    const r = refusal(await ingest(f.ports, get('challenge_code=a8628072-3d33-45ee-9004-bee86830a22d'), body('')));
    expect([r.status, r.outcome, r.reply?.contentType]).toEqual([
      200,
      'HANDSHAKE_ANSWERED',
      'application/json; charset=utf-8',
    ]);
    expect(JSON.parse(r.reply?.body ?? '')).toEqual({
      challengeResponse: expected('a8628072-3d33-45ee-9004-bee86830a22d', 'https://relay.example/relay/ep_1'),
    });
    expect(f.published).toEqual([]);
  });

  it("the URL's other query parameters stay in the hashed URL", async () => {
    const f = fakePorts(v());
    const r = refusal(await ingest(f.ports, get('shop=1&challenge_code=abc'), body('')));
    expect(JSON.parse(r.reply?.body ?? '')).toEqual({
      challengeResponse: expected('abc', 'https://relay.example/relay/ep_1?shop=1'),
    });
  });

  it('no verify_token configured: 401 AUTH_FAILED, the row says why', async () => {
    const f = fakePorts(v({}));
    const r = refusal(await ingest(f.ports, get('challenge_code=abc'), body('')));
    expect([r.status, r.outcome, r.reason]).toEqual([
      401,
      'AUTH_FAILED',
      'eBay endpoint validation, but the endpoint has no verify_token',
    ]);
  });
});
