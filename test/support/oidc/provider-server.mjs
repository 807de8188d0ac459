// A real OpenID Provider for the tests: the certified `oidc-provider` package (ESM only, so run as
// its own process by test/support/oidc-provider.ts) on loopback, with discovery, PKCE (S256,
// required), signed ID tokens and its development login and consent pages, where any login is
// accepted and becomes the `sub`. One confidential client, from OIDC_CLIENT (JSON).
import Provider from 'oidc-provider';
import { createServer } from 'node:http';

const client = JSON.parse(process.env.OIDC_CLIENT);
const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [{ ...client, grant_types: ['authorization_code'], response_types: ['code'] }],
  pkce: { required: () => true },
  // email and name in the ID token itself, as the common providers put them
  conformIdTokenClaims: false,
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  findAccount: (_ctx, id) => ({
    accountId: id,
    claims: () => ({ sub: id, email: id, email_verified: true, name: id.split('@')[0] }),
  }),
  cookies: { keys: ['test-provider-cookie-key'] },
});
server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
