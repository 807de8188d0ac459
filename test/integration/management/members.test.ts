import { errorOf, must } from '@relay/client';
import { createSmtpTransport } from '@relay/targets';
import { createInvitationMailer } from '../../../services/management-api/src/adapters/invitation-mail';
import { CookieJar, signInWithoutBrowser, startTestOidcProvider } from '../../support/oidc-provider';
import type { TestOidcProvider } from '../../support/oidc-provider';
import { startTestSmtpServer } from '../../support/smtp-server';
import type { TestSmtpServer } from '../../support/smtp-server';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/**
 * Members (docs/members.md) against the real store and Redis, a real OpenID Provider
 * (`oidc-provider` on loopback) and a real SMTP server: the account's provider set by an owner,
 * invitations mailed and accepted once, sign-in with code + PKCE, the member's role on every
 * request, the member as the audit actor, and removal ending their session at once.
 */
let fx: ManagementFixture;
let smtp: TestSmtpServer;
let idp: TestOidcProvider;

beforeAll(async () => {
  smtp = await startTestSmtpServer({ security: 'starttls' });
  const transport = createSmtpTransport({
    host: '127.0.0.1',
    port: smtp.port,
    security: 'starttls',
    from: 'relay@relay.example',
    ca: smtp.ca,
    connectionTimeoutMs: 5000,
    greetingTimeoutMs: 5000,
    socketTimeoutMs: 5000,
    maxConnections: 1,
  });
  fx = await startManagement('mgmt-members', {
    mailer: createInvitationMailer({ transport, from: 'relay@relay.example' }),
  });
  idp = await startTestOidcProvider(`${fx.baseUrl}/session/oidc/callback`);
  await must(
    fx.client.PUT('/v1/account/identity-provider', {
      body: { issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret },
    }),
  );
});
afterAll(async () => {
  await idp?.close();
  await fx?.close();
  await smtp?.close();
});

/** Invites `email` as `role` with the owner key and returns the link the mail carries. */
async function invite(email: string, role: 'owner' | 'admin' | 'editor' | 'viewer'): Promise<string> {
  const before = smtp.received.length;
  const res = await fx.client.POST('/v1/members/invitations', { body: { email, role } });
  expect(res.response.status).toBe(201);
  const [mail] = (await smtp.waitFor(before + 1)).slice(before);
  expect(mail!.envelope.to).toEqual([email]);
  return /(http:\/\/\S+\/session\/oidc\/start\?invitation=\S+)/.exec(String(mail!.parsed.text))![1]!;
}

/** A request with a session cookie, as the dashboard sends it (CSRF token on changes). */
async function asMember(jar: CookieJar, method: string, path: string, body?: unknown) {
  const url = `${fx.baseUrl}${path}`;
  const who = await fetch(`${fx.baseUrl}/session`, { headers: { cookie: jar.header(url) } });
  const csrf = who.status === 200 ? String(((await who.json()) as { csrf_token: string }).csrf_token) : '';
  const res = await fetch(url, {
    method,
    headers: {
      cookie: jar.header(url),
      'x-relay-csrf': csrf,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, any> };
}

const dashboardError = (res: Response): string | null =>
  new URL(res.headers.get('location')!).searchParams.get('sign_in_error');

describe('the identity provider', () => {
  it('is answered without its client secret, which is stored sealed', async () => {
    const res = await must(fx.client.GET('/v1/account/identity-provider'));
    expect(res).toMatchObject({
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret: { set: true },
      redirect_uri: `${fx.baseUrl}/session/oidc/callback`,
    });
    const raw = await fx.store.connection.collection('identity_providers').findOne({ _id: fx.accountId as never });
    expect(JSON.stringify([res, raw])).not.toContain(idp.clientSecret);
  });

  it.each([
    ['http://idp.example.com', 'must use https (http only for a provider on loopback)'],
    ['https://idp.example.com/?a=1', 'must have no query or fragment'],
    ['not a url', 'must be a URL'],
  ])('an issuer %s is refused: 400 naming the field', async (issuer, message) => {
    const res = await fx.client.PUT('/v1/account/identity-provider', {
      body: { issuer, client_id: 'c', client_secret: 's' },
    });
    expect(res.response.status).toBe(400);
    expect(res.error).toMatchObject({ code: 'validation_failed', errors: [{ field: 'issuer', message }] });
  });

  it('an issuer that serves no discovery document is refused when saved', async () => {
    const res = await fx.client.PUT('/v1/account/identity-provider', {
      body: { issuer: `${fx.baseUrl}/not-a-provider`, client_id: 'c', client_secret: 's' },
    });
    expect(res.response.status).toBe(400);
    expect(errorOf(res.response, res.error).errors[0]?.field).toBe('issuer');
  });
});

describe('invitations and sign-in', () => {
  it('an invitation is mailed with a single-use link; only its digest is stored', async () => {
    const link = await invite('once@example.com', 'viewer');
    const token = new URL(link).searchParams.get('invitation')!;
    const stored = await fx.store.connection
      .collection('member_invitations')
      .find({ account_id: fx.accountId })
      .toArray();
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(token);
    const first = await signInWithoutBrowser(link, 'once@example.com');
    expect(dashboardError(first.callback)).toBeNull();
    // used: the link sends the browser back to the dashboard, saying why, before the provider is asked
    const start = await fetch(link, { redirect: 'manual' });
    expect(dashboardError(start)).toBe('invitation_invalid');
  });

  it('a link signed in with another verified address is refused, and stays open for the invited one', async () => {
    const link = await invite('invited@example.com', 'viewer');
    const other = await signInWithoutBrowser(link, 'forwarded-to@example.com');
    expect(dashboardError(other.callback)).toBe('invitation_other_address');
    const invited = await signInWithoutBrowser(link, 'Invited@Example.com');
    expect(dashboardError(invited.callback)).toBeNull();
    const members = await must(fx.client.GET('/v1/members'));
    const emails = members.data.map((m) => m.email);
    expect(emails).toContain('invited@example.com');
    expect(emails).not.toContain('forwarded-to@example.com');
  });

  it('one link used by two sign-ins at the same moment makes one member', async () => {
    const link = await invite('race@example.com', 'viewer');
    const [a, b] = await Promise.all([
      signInWithoutBrowser(link, 'race@example.com'),
      signInWithoutBrowser(link, 'race@example.com'),
    ]);
    expect([dashboardError(a.callback), dashboardError(b.callback)].sort()).toEqual(
      ['invitation_invalid', null].sort(),
    );
    const members = await must(fx.client.GET('/v1/members'));
    expect(members.data.filter((m) => m.email === 'race@example.com')).toHaveLength(1);
  });

  it('an expired invitation is refused', async () => {
    const link = await invite('late@example.com', 'viewer');
    await fx.store.connection
      .collection('member_invitations')
      .updateOne(
        { account_id: fx.accountId, email: 'late@example.com' },
        { $set: { expires_at: new Date(Date.now() - 1000) } },
      );
    expect(dashboardError(await fetch(link, { redirect: 'manual' }))).toBe('invitation_invalid');
    const open = await must(fx.client.GET('/v1/members/invitations'));
    expect(open.data.map((i) => i.email)).not.toContain('late@example.com');
  });

  it('a viewer member reads but cannot change, with a 403 naming their role', async () => {
    const { jar } = await signInWithoutBrowser(await invite('viewer@example.com', 'viewer'), 'viewer@example.com');
    const me = await asMember(jar, 'GET', '/session');
    expect(me.body).toMatchObject({
      account_id: fx.accountId,
      role: 'viewer',
      member: { email: 'viewer@example.com', name: 'viewer' },
    });
    expect((await asMember(jar, 'GET', '/v1/endpoints')).status).toBe(200);
    const write = await asMember(jar, 'POST', '/v1/endpoints', { name: 'by a viewer' });
    expect(write).toEqual({
      status: 403,
      body: { code: 'forbidden', message: 'Your role (viewer) cannot do this; it needs editor or higher.' },
    });
  });

  it('a change by a member names them in the audit history: member id and address', async () => {
    const { jar } = await signInWithoutBrowser(await invite('editor@example.com', 'editor'), 'editor@example.com');
    const me = await asMember(jar, 'GET', '/session');
    // the cookie alone cannot write: a cross-site form has no CSRF token to send
    const url = `${fx.baseUrl}/v1/endpoints`;
    const forged = await fetch(url, {
      method: 'POST',
      headers: { cookie: jar.header(url), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'forged' }),
    });
    expect([forged.status, ((await forged.json()) as { code: string }).code]).toEqual([403, 'csrf_failed']);
    const created = await asMember(jar, 'POST', '/v1/endpoints', { name: 'made by a person' });
    expect(created.status).toBe(201);
    const audit = await must(fx.client.GET('/v1/audit'));
    const row = audit.data.find((r) => r.action === 'endpoint_created');
    expect(row).toMatchObject({ actor: me.body.member.id, actor_name: 'editor <editor@example.com>' });
    const joined = audit.data.find((r) => r.action === 'member_joined' && r.actor === me.body.member.id);
    expect(joined?.details).toMatchObject({ email: 'editor@example.com', role: 'editor' });
  });

  it('a member signs in again with the account id; an identity that is not a member is refused', async () => {
    await signInWithoutBrowser(await invite('back@example.com', 'viewer'), 'back@example.com');
    const start = `${fx.baseUrl}/session/oidc/start?account=${fx.accountId}`;
    const again = await signInWithoutBrowser(start, 'back@example.com');
    expect(dashboardError(again.callback)).toBeNull();
    expect((await asMember(again.jar, 'GET', '/session')).body.member.email).toBe('back@example.com');
    const stranger = await signInWithoutBrowser(start, 'stranger@example.com');
    expect(dashboardError(stranger.callback)).toBe('not_a_member');
  });

  it('a callback whose state is not the one this browser began is refused', async () => {
    const start = `${fx.baseUrl}/session/oidc/start?account=${fx.accountId}`;
    const forged = await signInWithoutBrowser(start, 'back@example.com', new CookieJar(), (u) =>
      u.searchParams.set('state', 'x'.repeat(43)),
    );
    expect(dashboardError(forged.callback)).toBe('sign_in_expired');
    expect(forged.jar.get(fx.baseUrl, 'relay_session')).toBeUndefined();
  });

  it('start without an account or invitation is a 400 naming the field', async () => {
    const res = await fetch(`${fx.baseUrl}/session/oidc/start?account=`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'account' }] });
  });
});

describe('removing a member', () => {
  it('ends their session at once: the next request is 401', async () => {
    const { jar } = await signInWithoutBrowser(await invite('leaver@example.com', 'editor'), 'leaver@example.com');
    const me = await asMember(jar, 'GET', '/session');
    expect((await asMember(jar, 'GET', '/v1/endpoints')).status).toBe(200);
    const removed = await fx.client.DELETE('/v1/members/{memberId}', {
      params: { path: { memberId: me.body.member.id } },
    });
    expect(removed.response.status).toBe(204);
    expect((await asMember(jar, 'GET', '/v1/endpoints')).status).toBe(401);
    expect((await asMember(jar, 'GET', '/session')).status).toBe(401);
    const audit = await must(fx.client.GET('/v1/audit'));
    expect(audit.data[0]).toMatchObject({
      action: 'member_removed',
      details: { member_id: me.body.member.id, email: 'leaver@example.com' },
    });
  });

  it('an admin cannot invite or remove owners', async () => {
    const admin = await fx.keyWithRole('admin');
    const res = await fx
      .clientAs(admin.secret)
      .POST('/v1/members/invitations', { body: { email: 'o@example.com', role: 'owner' } });
    expect(res.response.status).toBe(403);
  });
});
