import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWTPayload, KeyLike } from 'jose';
import { checkIdToken, IdTokenError } from './id-token';

/** OIDC Core 3.1.3.7: each check of an ID token, with a token that fails it and only it. */
const ISSUER = 'https://idp.example.com';
const CLIENT = 'relay-dashboard';
const NONCE = 'n'.repeat(43);
const NOW = new Date('2026-11-29T12:00:00Z');
const at = (seconds: number): number => Math.floor(NOW.getTime() / 1000) + seconds;

let key: KeyLike;
let otherKey: KeyLike;
let keys: ReturnType<typeof createLocalJWKSet>;
beforeAll(async () => {
  const issuerKeys = await generateKeyPair('RS256');
  key = issuerKeys.privateKey;
  const pub = await exportJWK(issuerKeys.publicKey);
  keys = createLocalJWKSet({ keys: [{ ...pub, kid: 'k1', alg: 'RS256', use: 'sig' }] });
  otherKey = (await generateKeyPair('RS256')).privateKey;
});

const GOOD: JWTPayload = {
  iss: ISSUER,
  sub: 'person-1',
  aud: CLIENT,
  iat: at(-5),
  exp: at(300),
  nonce: NONCE,
  email: 'person@example.com',
  name: 'Person',
};

async function token(claims: JWTPayload, signWith: KeyLike = key, alg = 'RS256'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, kid: 'k1' }).sign(signWith);
}
const check = (t: string) => checkIdToken(t, { issuer: ISSUER, clientId: CLIENT, nonce: NONCE, keys, now: () => NOW });

describe('checkIdToken', () => {
  it('accepts a token that passes every check and returns who it names', async () => {
    await expect(check(await token(GOOD))).resolves.toEqual({
      issuer: ISSUER,
      subject: 'person-1',
      email: 'person@example.com',
      name: 'Person',
    });
  });

  it.each<[string, JWTPayload]>([
    ['another issuer (step 2)', { ...GOOD, iss: 'https://evil.example.com' }],
    ['another audience (step 3)', { ...GOOD, aud: 'another-client' }],
    ['several audiences without azp (step 4)', { ...GOOD, aud: [CLIENT, 'another-client'] }],
    ['an azp naming another client (step 5)', { ...GOOD, azp: 'another-client' }],
    ['an expired token (step 9)', { ...GOOD, iat: at(-900), exp: at(-120) }],
    ['a token issued too long ago (step 10)', { ...GOOD, iat: at(-3600), exp: at(3600) }],
    ['no iat (step 10)', { ...GOOD, iat: undefined }],
    ['another nonce (step 11)', { ...GOOD, nonce: 'm'.repeat(43) }],
    ['no nonce (step 11)', { ...GOOD, nonce: undefined }],
    ['no sub', { ...GOOD, sub: undefined }],
  ])('refuses %s', async (_name, claims) => {
    const payload = Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined));
    await expect(check(await token(payload))).rejects.toBeInstanceOf(IdTokenError);
  });

  it('accepts several audiences when azp is this client', async () => {
    await expect(check(await token({ ...GOOD, aud: [CLIENT, 'another'], azp: CLIENT }))).resolves.toMatchObject({
      subject: 'person-1',
    });
  });

  it("refuses a signature by a key that is not the issuer's (step 6)", async () => {
    await expect(check(await token(GOOD, otherKey))).rejects.toBeInstanceOf(IdTokenError);
  });

  it('refuses a token signed with the client secret (HS256), whatever it says (step 7)', async () => {
    const hs = await new SignJWT(GOOD)
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .sign(new TextEncoder().encode('the-client-secret-of-32-characters!'));
    await expect(check(hs)).rejects.toBeInstanceOf(IdTokenError);
  });

  it('does not take an address the provider says is unverified', async () => {
    await expect(check(await token({ ...GOOD, email_verified: false }))).resolves.toMatchObject({ email: null });
  });
});
