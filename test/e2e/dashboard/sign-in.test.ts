import type { Page } from 'playwright-core';
import { createRelayClient, must } from '@relay/client';
import type { RelayClient } from '@relay/client';
import { startService } from '../../support/services';
import type { RunningService } from '../../support/services';
import { startTestOidcProvider } from '../../support/oidc-provider';
import type { TestOidcProvider } from '../../support/oidc-provider';
import { startTestSmtpServer } from '../../support/smtp-server';
import type { TestSmtpServer } from '../../support/smtp-server';
import { startStack } from '../stack';
import type { Stack } from '../stack';
import { launchBrowser } from './browser';
import type { Browser } from './browser';

/**
 * People sign in (docs/members.md), in Chromium against a management API process with the
 * operator's mail relay (a real SMTP server) and a real OpenID Provider (`oidc-provider`), both
 * on loopback: an invited owner signs in through the provider, invites a member from the
 * dashboard, the member follows the mailed link, signs in as a viewer and cannot write, the
 * audit history names them, and removing them ends their session at once. The API process is
 * this file's own on the worker's shared stack: the shared one has no mail relay, and its
 * DASHBOARD_URL must be its own address for the provider's callback.
 */
let stack: Stack;
let smtp: TestSmtpServer;
let api: RunningService;
let idp: TestOidcProvider;
let browser: Browser;
let client: RelayClient;

beforeAll(async () => {
  stack = await startStack('signin');
  smtp = await startTestSmtpServer({ security: 'plain' });
  api = await startService('management-api', {
    ...stack.env,
    DASHBOARD_URL: 'http://127.0.0.1:{PORT}/',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_SECURITY: 'none',
    SMTP_FROM: 'relay@relay.example',
  });
  idp = await startTestOidcProvider(`${api.url}/session/oidc/callback`);
  // the typed client of this file's API process, with the account's owner key
  client = createRelayClient({ baseUrl: api.url, apiKey: stack.apiKey });
  await must(
    client.PUT('/v1/account/identity-provider', {
      body: { issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret },
    }),
  );
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await idp?.close();
  await api?.stop();
  await smtp?.close();
  await stack?.stop();
});

/** The link of the invitation mail to `email` (the test SMTP server's copy). */
async function linkMailedTo(email: string): Promise<string> {
  for (let n = 1; ; n++) {
    const mail = (await smtp.waitFor(n)).find((m) => m.envelope.to.includes(email));
    if (mail) return /(http:\/\/\S+\/session\/oidc\/start\?invitation=\S+)/.exec(String(mail.parsed.text))![1]!;
  }
}

/** A person in a browser of their own follows the link and signs in at the provider as `email`. */
async function signInThrough(link: string, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
  await page.getByText(email).first().waitFor();
  return page;
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

it('owner signs in through the provider, invites a viewer who cannot write, is audited, and is removed', async () => {
  // the first member: invited with the account's owner key
  const first = await client.POST('/v1/members/invitations', { body: { email: 'owner@example.com', role: 'owner' } });
  expect(first.response.status).toBe(201);
  const owner = await signInThrough(await linkMailedTo('owner@example.com'), 'owner@example.com');

  // the owner invites a viewer from the Members page
  await mainNav(owner).getByRole('link', { name: 'Members' }).click();
  await owner.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
  await owner.getByLabel('Email').fill('viewer@example.com');
  await owner.getByLabel('Role').selectOption('viewer');
  await owner.getByRole('button', { name: 'Send invitation' }).click();
  await owner.getByText('Invitation sent to viewer@example.com.').waitFor();

  // the viewer follows the mailed link and signs in: reads, cannot write
  const viewer = await signInThrough(await linkMailedTo('viewer@example.com'), 'viewer@example.com');
  await viewer.locator('.who .badge', { hasText: 'viewer' }).waitFor();
  expect(await viewer.getByRole('button', { name: 'Create endpoint' }).count()).toBe(0);
  expect(await mainNav(viewer).getByRole('link', { name: 'Members' }).count()).toBe(0);
  const write = await viewer.evaluate(async () => {
    const me = (await (await fetch('/session')).json()) as { csrf_token: string };
    const res = await fetch('/v1/endpoints', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-relay-csrf': me.csrf_token },
      body: JSON.stringify({ name: 'written by a viewer' }),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  });
  expect(write).toEqual({
    status: 403,
    body: { code: 'forbidden', message: 'Your role (viewer) cannot do this; it needs editor or higher.' },
  });

  // the audit history names the person who joined, and the one who invited
  await mainNav(owner).getByRole('link', { name: 'Audit history' }).click();
  await owner.getByRole('heading', { level: 1, name: 'Audit history' }).waitFor();
  const row = (...texts: string[]) =>
    texts.reduce((rows, text) => rows.filter({ hasText: text }), owner.getByRole('row')).first();
  await row('Member joined', 'viewer <viewer@example.com>').waitFor();
  await row('Member invited', 'owner <owner@example.com>', 'viewer@example.com as viewer').waitFor();

  // removing the viewer ends their session: their next request finds them signed out
  await mainNav(owner).getByRole('link', { name: 'Members' }).click();
  await owner.getByRole('button', { name: 'Remove viewer@example.com' }).click();
  await owner.getByRole('button', { name: 'Remove member' }).click();
  await owner.getByText('viewer@example.com removed: their sessions end now.').waitFor();
  await mainNav(viewer).getByRole('link', { name: 'Request activity' }).click();
  await viewer.getByRole('button', { name: 'Continue with your identity provider' }).waitFor();
  expect(await viewer.evaluate(() => fetch('/session').then((r) => r.status))).toBe(401);
});
