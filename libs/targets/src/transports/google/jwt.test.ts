import { createVerify, generateKeyPairSync } from 'node:crypto';
import { columnLetters, quoteSheet } from './a1';
import { GOOGLE_TOKEN_URL, SHEETS_SCOPE, signAssertion } from './jwt';

describe('the JWT bearer assertion (RFC 7523, Google server-to-server)', () => {
  it('is RS256 over header.claims with iss, scope, aud, iat and exp one hour later', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = {
      client_email: 'sa@p.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      private_key_id: 'kid1',
    };
    const jwt = signAssertion(key, 1_700_000_000_500);
    const [h, c, s] = jwt.split('.');
    expect(JSON.parse(Buffer.from(h!, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid1' });
    expect(JSON.parse(Buffer.from(c!, 'base64url').toString())).toEqual({
      iss: key.client_email,
      scope: SHEETS_SCOPE,
      aud: GOOGLE_TOKEN_URL,
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
    expect(createVerify('RSA-SHA256').update(`${h}.${c}`).verify(publicKey, Buffer.from(s!, 'base64url'))).toBe(true);
  });
});

describe('A1 notation', () => {
  it.each([
    [0, 'A'],
    [25, 'Z'],
    [26, 'AA'],
    [701, 'ZZ'],
    [702, 'AAA'],
  ])('column %i is %s', (i, letters) => expect(columnLetters(i)).toBe(letters));

  it('quotes a tab name, doubling a quote inside', () => expect(quoteSheet("Bob's leads")).toBe("'Bob''s leads'"));
});
