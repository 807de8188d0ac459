import { generateKeyPairSync } from 'node:crypto';
import { validateInboundAuth } from '@relay/endpoints';
import type { InboundAuthSetting } from '@relay/endpoints';
import type { HttpRequest, SendOutcome } from '@relay/targets';
import {
  createProviderCalls,
  EBAY_KEY_MAX_AGE_MS,
} from '../../../../services/ingest-gateway/src/adapters/signing-certificates';
import { certificatePlanOf, ebayPublicKey } from '../../../../services/ingest-gateway/src/domain/auth/certificate';
import type { CertificatePlan } from '../../../../services/ingest-gateway/src/domain/auth/certificate';
import type { InboundRequest } from '../../../../services/ingest-gateway/src/domain/auth/request';
import { ebayPublicKeyAnswer, ebaySignature } from '../../../support/preset-signers/certificate-signers';
import { testLogger } from '../../../support/logger';

/**
 * docs/inbound-auth.md "Certificate-signed presets", eBay: notifications signed the documented
 * way (test/support/preset-signers) with an ECDSA P-256 key made here; the plan, the key answer,
 * and the adapter that mints the OAuth token and fetches keys by kid.
 */

const NOW = new Date('2026-11-29T12:00:00Z');
const KID = '99345dd2-4e62-4a7a-a9a6-bfd1d5d6f5a2';
const CREDENTIALS = 'Relay-Test-PRD-1a2b3c4d5-6e7f8a9b:PRD-1a2b3c4d5e6f-7a8b-9c0d-1e2f-3a4b';
const ecdsa = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const BODY = JSON.stringify({
  metadata: { topic: 'MARKETPLACE_ACCOUNT_DELETION', schemaVersion: '1.0', deprecated: false },
  notification: { notificationId: '49feeaeb-4982-42d9-a377-9645b8479411_33f7e043', data: { username: 'test_user' } },
});

function setting(preset: 'ebay' | 'ebay_sandbox' = 'ebay', secrets = [CREDENTIALS]): InboundAuthSetting {
  const checked = validateInboundAuth({ type: 'HMAC', preset, secrets });
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.value;
}

const request = (body: string, headers: Record<string, string>): InboundRequest => ({
  method: 'POST',
  url: 'https://relay.example/relay/ep_1',
  headers: { 'content-type': 'application/json', ...headers },
  rawBody: Buffer.from(body),
});

const signed = (body = BODY, kid = KID) =>
  request(body, { 'x-ebay-signature': ebaySignature(Buffer.from(body), { key: ecdsa.privateKey, kid }) });

const headerOf = (fields: object) => ({
  'x-ebay-signature': Buffer.from(JSON.stringify(fields)).toString('base64'),
});

function ready(plan: CertificatePlan | null) {
  if (plan === null || !plan.ok) throw new Error(`not verifiable: ${JSON.stringify(plan)}`);
  return plan.signed;
}

describe('the request', () => {
  it('names the key by kid on the API host of the preset, with the token URL and the credentials', () => {
    expect(ready(certificatePlanOf(setting(), signed(), NOW))).toMatchObject({
      provider: 'ebay',
      certificateUrl: `https://api.ebay.com/commerce/notification/v1/public_key/${KID}`,
      oauth: { tokenUrl: 'https://api.ebay.com/identity/v1/oauth2/token', clientCredentials: CREDENTIALS },
    });
    expect(ready(certificatePlanOf(setting('ebay_sandbox'), signed(), NOW)).certificateUrl).toBe(
      `https://api.sandbox.ebay.com/commerce/notification/v1/public_key/${KID}`,
    );
  });

  it('signed with the key: verified; a tampered body: signature mismatch', () => {
    const plan = ready(certificatePlanOf(setting(), signed(), NOW));
    expect(plan.verify(ecdsa.publicKey)).toEqual({ ok: true });
    const tampered = signed();
    const forged = ready(
      certificatePlanOf(setting(), { ...tampered, rawBody: Buffer.from(BODY.replace('test_user', 'other')) }, NOW),
    );
    expect(forged.verify(ecdsa.publicKey)).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  it('another key (or an RSA key) does not verify', () => {
    const plan = ready(certificatePlanOf(setting(), signed(), NOW));
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(plan.verify(other.publicKey)).toEqual({ ok: false, reason: 'signature mismatch' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(plan.verify(rsa.publicKey)).toEqual({ ok: false, reason: "eBay's public key is not an EC key" });
  });

  const good = JSON.parse(Buffer.from(signed().headers['x-ebay-signature'] as string, 'base64').toString()) as object;
  it.each([
    ['no header', {}, 'missing x-ebay-signature header'],
    ['not base64 JSON', { 'x-ebay-signature': 'not base64!' }, 'malformed x-ebay-signature header'],
    ['alg not ECDSA', headerOf({ ...good, alg: 'rsa' }), 'x-ebay-signature alg is not ECDSA'],
    ['digest not SHA1', headerOf({ ...good, digest: 'SHA256' }), 'x-ebay-signature digest is not SHA1'],
    ['a kid that is a path', headerOf({ ...good, kid: '../../identity/v1' }), 'x-ebay-signature kid is missing'],
    ['no signature', headerOf({ ...good, signature: undefined }), 'x-ebay-signature signature is missing'],
  ])('%s: refused before any fetch', (_name, headers, reason) => {
    const plan = certificatePlanOf(setting(), request(BODY, headers as Record<string, string>), NOW);
    expect(plan).toEqual({ ok: false, reason: expect.stringContaining(reason) as string });
  });
});

describe("getPublicKey's answer", () => {
  const until = new Date(NOW.getTime() + 60_000);

  it('a PEM on one line, as eBay sends it, is the key', () => {
    const answer = ebayPublicKey(ebayPublicKeyAnswer(ecdsa.publicKey), until);
    expect(answer).toMatchObject({ ok: true, notAfter: until });
    expect(answer.ok && answer.key.equals(ecdsa.publicKey)).toBe(true);
  });

  it.each([
    ['not JSON', 'nope', 'is not a JSON object'],
    ['another algorithm', JSON.stringify({ algorithm: 'RSA', digest: 'SHA1', key: 'x' }), 'not for ECDSA with SHA1'],
    ['no PEM', JSON.stringify({ algorithm: 'ECDSA', digest: 'SHA1', key: 'abc' }), 'is not a PEM public key'],
    [
      'an RSA key',
      ebayPublicKeyAnswer(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey),
      'is not an EC key',
    ],
  ])('%s: refused', (_name, body, reason) => {
    expect(ebayPublicKey(body, until)).toEqual({ ok: false, untrusted: expect.stringContaining(reason) as string });
  });
});

describe('settings', () => {
  it('the secret is <App ID>:<Cert ID>; a verification token is accepted', () => {
    expect(validateInboundAuth({ type: 'HMAC', preset: 'ebay', secrets: ['no-colon'] })).toMatchObject({
      ok: false,
      errors: [{ field: 'inbound_auth.hmac.secrets[0]', message: expect.stringContaining('<App ID>:<Cert ID>') }],
    });
    expect(
      validateInboundAuth({ type: 'HMAC', preset: 'ebay', secrets: [CREDENTIALS], verify_token: 'a'.repeat(40) }),
    ).toMatchObject({ ok: true });
  });
});

/** A fake api.ebay.com behind the sender: a token endpoint and public_key by kid. */
function fakeEbay(keys: Record<string, string> = { [KID]: ebayPublicKeyAnswer(ecdsa.publicKey) }) {
  const sent: HttpRequest[] = [];
  let minted = 0;
  let release: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  const answer = (status: number, body: string): SendOutcome => ({
    response: { status, headers: {}, body },
    durationMs: 1,
  });
  const fake = {
    sent,
    tokenStatus: 200,
    keyStatus: 200 as number | null,
    send: async (req: HttpRequest): Promise<SendOutcome> => {
      sent.push(req);
      await gate;
      if (req.url.endsWith('/identity/v1/oauth2/token')) {
        if (fake.tokenStatus !== 200) return answer(fake.tokenStatus, '{"error":"invalid_client"}');
        minted += 1;
        return answer(200, JSON.stringify({ access_token: `token-${minted}`, expires_in: 7200, token_type: 'x' }));
      }
      const kid = req.url.split('/').pop() ?? '';
      if (fake.keyStatus !== 200) return answer(fake.keyStatus ?? 500, '{}');
      return keys[kid] === undefined ? answer(404, '{"errors":[]}') : answer(200, keys[kid]);
    },
    tokens: () => sent.filter((r) => r.url.endsWith('/oauth2/token')),
    keys: () => sent.filter((r) => r.url.includes('/public_key/')),
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
  return fake;
}

const OAUTH = { tokenUrl: 'https://api.ebay.com/identity/v1/oauth2/token', clientCredentials: CREDENTIALS };
const keyUrl = (kid: string) => `https://api.ebay.com/commerce/notification/v1/public_key/${kid}`;
const calls = (fake: ReturnType<typeof fakeEbay>) =>
  createProviderCalls({
    send: fake.send,
    extraAnchors: '',
    maxEntries: 10,
    maxAgeMs: 86_400_000,
    logger: testLogger().logger,
  }).certificates;

describe('the adapter', () => {
  it('twenty concurrent requests: one token, one key fetch; later ones use the kept key', async () => {
    const fake = fakeEbay();
    const certificates = calls(fake);
    fake.hold();
    const answers = Array.from({ length: 20 }, () => certificates.get(keyUrl(KID), 'ebay', NOW, OAUTH));
    fake.release();
    for (const answer of await Promise.all(answers)) expect(answer).toMatchObject({ ok: true });
    await certificates.get(keyUrl(KID), 'ebay', new Date(NOW.getTime() + 60_000), OAUTH);
    expect([fake.tokens().length, fake.keys().length]).toEqual([1, 1]);
  });

  it("the token request is eBay's client credentials grant; the key request carries the token", async () => {
    const fake = fakeEbay();
    await calls(fake).get(keyUrl(KID), 'ebay', NOW, OAUTH);
    const [token, key] = fake.sent;
    expect(token).toMatchObject({
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(CREDENTIALS).toString('base64')}`,
      },
    });
    expect(Object.fromEntries(new URLSearchParams(token!.body.toString()))).toEqual({
      grant_type: 'client_credentials',
      scope: 'https://api.ebay.com/oauth/api_scope',
    });
    expect(key).toMatchObject({ method: 'GET', url: keyUrl(KID), headers: { authorization: 'Bearer token-1' } });
  });

  it('a key past its hour is fetched again, with the kept token; a token near its expiry is minted again', async () => {
    const fake = fakeEbay();
    const certificates = calls(fake);
    await certificates.get(keyUrl(KID), 'ebay', NOW, OAUTH);
    await certificates.get(keyUrl(KID), 'ebay', new Date(NOW.getTime() + EBAY_KEY_MAX_AGE_MS + 1), OAUTH);
    expect([fake.tokens().length, fake.keys().length]).toEqual([1, 2]);
    // the 7200 s token is minted again from a minute before it expires
    await certificates.get(keyUrl(KID), 'ebay', new Date(NOW.getTime() + 2 * EBAY_KEY_MAX_AGE_MS + 2), OAUTH);
    expect([fake.tokens().length, fake.keys().length]).toEqual([2, 3]);
  });

  it('an unknown kid (404) is refused and kept refused; a known one still verifies', async () => {
    const fake = fakeEbay();
    const certificates = calls(fake);
    const unknown = await certificates.get(keyUrl('not-a-kid'), 'ebay', NOW, OAUTH);
    expect(unknown).toEqual({ ok: false, untrusted: 'eBay has no public key with this kid' });
    await certificates.get(keyUrl('not-a-kid'), 'ebay', NOW, OAUTH);
    expect(fake.keys().length).toBe(1);
    expect(await certificates.get(keyUrl(KID), 'ebay', NOW, OAUTH)).toMatchObject({ ok: true });
  });

  it('credentials eBay refuses: unavailable (503), nothing kept, the next request tries again', async () => {
    const fake = fakeEbay();
    fake.tokenStatus = 401;
    const certificates = calls(fake);
    expect(await certificates.get(keyUrl(KID), 'ebay', NOW, OAUTH)).toEqual({
      ok: false,
      unavailable: 'access token: HTTP 401',
    });
    fake.tokenStatus = 200;
    expect(await certificates.get(keyUrl(KID), 'ebay', NOW, OAUTH)).toMatchObject({ ok: true });
    expect(fake.keys().length).toBe(1);
  });

  it('a token the key endpoint refuses (401) is dropped: the next request mints a new one', async () => {
    const fake = fakeEbay();
    fake.keyStatus = 401;
    const certificates = calls(fake);
    expect(await certificates.get(keyUrl(KID), 'ebay', NOW, OAUTH)).toEqual({ ok: false, unavailable: 'HTTP 401' });
    fake.keyStatus = 200;
    expect(await certificates.get(keyUrl(KID), 'ebay', NOW, OAUTH)).toMatchObject({ ok: true });
    expect(fake.keys().map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });
});
