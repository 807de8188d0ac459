import { createHmac } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import twilio from 'twilio';
import { IngestHarness } from '../ingest/harness';
import type { GatewayInstance } from '../ingest/harness';
import { send } from '../ingest/http';

/** Spec "Authentication / Inbound (sender to endpoint)": the types table and rules 1–2. */
let h: IngestHarness;
let gw: GatewayInstance;
let account: string;

beforeAll(async () => {
  h = await IngestHarness.start('conf-auth');
  gw = await h.gateway();
  account = await h.account();
});

afterAll(async () => {
  await h?.stop();
});

const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('Inbound authentication types: what the sender sends', () => {
  it('"NONE: nothing"', async () => {
    expect((await send(gw, await h.endpoint(account, { inbound_auth: { type: 'NONE' } }))).status).toBe(202);
  });

  it('"BEARER: `Authorization: Bearer <token>`"', async () => {
    const id = await h.endpoint(account, { inbound_auth: { type: 'BEARER', tokens: [h.seal('tok-123')] } });
    expect((await send(gw, id, { headers: { authorization: 'Bearer tok-123' } })).status).toBe(202);
    expect((await send(gw, id, { headers: { authorization: 'Bearer TOK-123' } })).status).toBe(401);
  });

  it('"BASIC: `Authorization: Basic <base64(<USERNAME>:<PASSWORD>)>`"', async () => {
    const id = await h.endpoint(account, {
      inbound_auth: { type: 'BASIC', credentials: [{ username: 'shop', password: h.seal('pa:ss') }] },
    });
    expect((await send(gw, id, { headers: { authorization: basic('shop', 'pa:ss') } })).status).toBe(202);
    expect((await send(gw, id, { headers: { authorization: basic('shop', 'wrong') } })).status).toBe(401);
  });

  it('"API_KEY: `<configured-header-name>: <API_KEY>`"', async () => {
    const id = await h.endpoint(account, {
      inbound_auth: { type: 'API_KEY', header: 'X-Relay-Key', keys: [h.seal('k-1')] },
    });
    expect((await send(gw, id, { headers: { 'x-relay-key': 'k-1' } })).status).toBe(202);
    expect((await send(gw, id, { headers: { 'x-other-key': 'k-1' } })).status).toBe(401);
  });

  it('"HMAC: signature headers of a provider preset" (GitHub, signed with @octokit/webhooks-methods)', async () => {
    const id = await h.endpoint(account, {
      inbound_auth: { type: 'HMAC', preset: 'github', secrets: [h.seal('gh-secret')] },
    });
    const body = '{"action":"opened"}';
    expect(
      (await send(gw, id, { body, headers: { 'x-hub-signature-256': await sign('gh-secret', body) } })).status,
    ).toBe(202);
    expect(
      (
        await send(gw, id, {
          body: '{"action":"closed"}',
          headers: { 'x-hub-signature-256': await sign('gh-secret', body) },
        })
      ).status,
    ).toBe(401);
  });

  it('"HMAC: signature headers of a provider preset" (Stripe, signed with the stripe SDK)', async () => {
    const id = await h.endpoint(account, {
      inbound_auth: { type: 'HMAC', preset: 'stripe', secrets: [h.seal('whsec_test')] },
    });
    const body = '{"id":"evt_1"}';
    const header = new Stripe('sk_test_x').webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_test' });
    expect((await send(gw, id, { body, headers: { 'stripe-signature': header } })).status).toBe(202);
  });

  it('"HMAC: … or custom signature headers"', async () => {
    const id = await h.endpoint(account, {
      inbound_auth: {
        type: 'HMAC',
        preset: 'custom',
        secrets: [h.seal('c-secret')],
        custom: { algorithm: 'sha256', header: 'X-Sig', encoding: 'hex', template: '{{body}}' },
      },
    });
    const body = '{"x":1}';
    expect(
      (await send(gw, id, { body, headers: { 'x-sig': createHmac('sha256', 'c-secret').update(body).digest('hex') } }))
        .status,
    ).toBe(202);
  });

  it('either of two active credentials is accepted (the rotation order "accept old and new credentials")', async () => {
    const id = await h.endpoint(account, { inbound_auth: { type: 'BEARER', tokens: [h.seal('old'), h.seal('new')] } });
    for (const token of ['old', 'new'])
      expect((await send(gw, id, { headers: { authorization: `Bearer ${token}` } })).status).toBe(202);
  });
});

describe('Rules', () => {
  it('"1. A request lacking valid credentials gets 401 and an activity row AUTH_FAILED"', async () => {
    const id = await h.endpoint(account, {
      inbound_auth: { type: 'API_KEY', header: 'X-Key', keys: [h.seal('secret-key')] },
    });
    const missing = await send(gw, id);
    const wrong = await send(gw, id, { headers: { 'x-key': 'guess' } });
    for (const res of [missing, wrong]) expect([res.status, res.json.code]).toEqual([401, 'auth_failed']);
    const rows = await h.waitForRows(id, 2);
    expect(rows.map((r) => [r.outcome, r.reason])).toEqual([
      ['AUTH_FAILED', 'missing X-Key header'],
      ['AUTH_FAILED', 'wrong API key'],
    ]);
    expect(JSON.stringify(rows)).not.toContain('secret-key');
  });

  it('"2. Required headers configured on the endpoint must also be present on every request. Header names match case-insensitively; values match case-sensitively and incoming values are not whitespace-trimmed. A missing or wrong one gives 400"', async () => {
    // HTTP itself drops edge whitespace in transit (RFC 9110 §5.5); inside the value the gateway
    // normalises nothing, so a value with a double space must arrive exactly so.
    const id = await h.endpoint(account, { required_headers: [{ name: 'X-Partner-ID', value: 'Acme  Inc' }] });
    expect((await send(gw, id, { headers: { 'x-partner-id': 'Acme  Inc' } })).status).toBe(202);
    expect((await send(gw, id, { headers: { 'X-PARTNER-ID': 'Acme  Inc' } })).status).toBe(202);
    for (const value of ['acme  inc', 'Acme Inc', 'Acme\tInc']) {
      const res = await send(gw, id, { headers: { 'X-Partner-ID': value } });
      expect([res.status, res.json.code]).toEqual([400, 'required_header_missing']);
      expect(res.json.message).not.toContain('Acme');
    }
    expect((await send(gw, id)).status).toBe(400);
  });
});

describe('The URL Twilio and Square sign (decision: PUBLIC_BASE_URL, else the request behind trusted proxies only)', () => {
  const TOKEN = 'twilio-token';
  const FORM = 'CallSid=CA1&From=%2B15550001111&Digits=42';
  const params = Object.fromEntries(new URLSearchParams(FORM));
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const fields = (): Parameters<IngestHarness['endpoint']>[1] => ({
    payload_format: 'form',
    inbound_auth: { type: 'HMAC', preset: 'twilio', secrets: [h.seal(TOKEN)] },
  });

  it('with PUBLIC_BASE_URL, the signature covers that base plus the path and query as received', async () => {
    const pub = await h.gateway({ publicBaseUrl: 'https://hooks.example.com/' });
    const id = await h.endpoint(account, fields());
    const signature = twilio.getExpectedTwilioSignature(
      TOKEN,
      `https://hooks.example.com/relay/${id}?src=call`,
      params,
    );
    expect(
      (await send(pub, id, { query: 'src=call', headers: { ...form, 'x-twilio-signature': signature }, body: FORM }))
        .status,
    ).toBe(202);
    expect(
      (await send(pub, id, { query: 'src=sms', headers: { ...form, 'x-twilio-signature': signature }, body: FORM }))
        .status,
    ).toBe(401);
  });

  it('without it, X-Forwarded-Proto/Host are ignored unless TRUST_PROXY_HOPS trusts the peer', async () => {
    const id = await h.endpoint(account, fields());
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'hooks.example.com' };
    const signature = twilio.getExpectedTwilioSignature(TOKEN, `https://hooks.example.com/relay/${id}`, params);
    expect(
      (await send(gw, id, { headers: { ...form, ...forwarded, 'x-twilio-signature': signature }, body: FORM })).status,
    ).toBe(401);
    const local = twilio.getExpectedTwilioSignature(TOKEN, `${gw.url}/relay/${id}`, params);
    expect((await send(gw, id, { headers: { ...form, 'x-twilio-signature': local }, body: FORM })).status).toBe(202);
    const behindProxy = await h.gateway({ trustProxyHops: 1 });
    expect(
      (await send(behindProxy, id, { headers: { ...form, ...forwarded, 'x-twilio-signature': signature }, body: FORM }))
        .status,
    ).toBe(202);
  });
});
