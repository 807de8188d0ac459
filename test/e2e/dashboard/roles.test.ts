import { must } from '@relay/client';
import type { Page } from 'playwright-core';
import { startStack } from '../stack';
import type { Stack } from '../stack';
import { launchBrowser } from './browser';
import type { Browser } from './browser';

/**
 * The role decides what the dashboard shows and enables (docs/dashboard.md, docs/management-api.md
 * "Roles"), in Chromium against the management API process: an owner manages keys (the secret
 * shown once), a viewer reads with every control disabled and sees neither Usage nor API keys,
 * and a key revoked from the keys page ends that key's session at once.
 */
let stack: Stack;
let browser: Browser;
let endpointId: string;

beforeAll(async () => {
  stack = await startStack('dashroles');
  const ep = await must(
    stack.client.POST('/v1/endpoints', {
      body: { name: 'orders', inbound_auth: { type: 'BEARER', tokens: ['tok_0123456789abcdefWXYZ'] } },
    }),
  );
  endpointId = ep.id;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Each user in a browser context of its own, as two people on two machines. */
async function signIn(key: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${stack.services['management-api']!.url}/`);
  await page.getByLabel('API key', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
  return page;
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

describe('the dashboard by role', () => {
  let viewerKey: string;

  it('lets an owner create a key, shown once, listed afterwards by prefix only', async () => {
    const page = await signIn(stack.apiKey);
    await mainNav(page).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByLabel('Role').selectOption('viewer');
    await page.getByLabel('Name (optional)').fill('auditor');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('The new API key', { exact: true });
    await shown.waitFor();
    viewerKey = await shown.inputValue();
    expect(viewerKey).toMatch(/^rk_/);
    await page.getByRole('cell', { name: `${viewerKey.slice(0, 7)}…` }).waitFor();
    // the list never carries a secret: after a reload only the prefix is left
    await page.reload();
    await page.getByRole('cell', { name: 'auditor' }).waitFor();
    expect(await page.content()).not.toContain(viewerKey);
    await page.context().close();
  });

  it('shows a viewer every page it may read, with every control disabled, and no Usage or API keys', async () => {
    const page = await signIn(viewerKey);
    expect(await mainNav(page).getByRole('link').allTextContents()).toEqual([
      'Endpoints',
      'Request activity',
      'Alerts',
    ]);
    expect(await page.getByRole('button', { name: 'Create endpoint' }).count()).toBe(0);
    // alert rules are read, never changed or tested, by a viewer
    await mainNav(page).getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    await page.getByText('No alert rules yet.').waitFor();
    expect(await page.getByRole('button', { name: 'New alert rule' }).count()).toBe(0);
    await mainNav(page).getByRole('link', { name: 'Endpoints' }).click();
    await page.getByRole('link', { name: 'orders' }).click();
    await page.getByRole('heading', { level: 1, name: 'orders' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Enabled' }).isDisabled()).toBe(true);
    for (const name of ['Pause', 'Send test request', 'Delete…'])
      expect(await page.getByRole('button', { name, exact: true }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    // a viewer never sees a secret's hint; the secret shows as set
    await page.getByText('set', { exact: true }).first().waitFor();
    expect(await page.content()).not.toContain('WXYZ');
    await page.context().close();
  });

  it('shows a viewer who types the address of a page it cannot read “Not allowed” and nothing to use under it', async () => {
    const page = await signIn(viewerKey);
    for (const [address, title, needs] of [
      ['keys', 'API keys', 'an admin'],
      ['usage', 'Usage', 'an admin'],
      ['audit', 'Audit history', 'an admin'],
    ] as const) {
      await page.goto(`${stack.services['management-api']!.url}/#/${address}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.getByText(`Not allowed: a viewer key cannot see ${title}. It needs ${needs} key or higher.`).waitFor();
      expect(await page.locator('main').locator('form, input, select, textarea, table').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    }
    // on an endpoint: the settings, windows and outputs read-only, no target control to use
    await page.goto(`${stack.services['management-api']!.url}/#/endpoints/${endpointId}/outputs`);
    await page.getByRole('heading', { level: 2, name: 'Outputs' }).waitFor();
    expect(await page.getByRole('button', { name: 'Add target' }).count()).toBe(0);
    await page.context().close();
  });

  it('ends the viewer key’s session at once when an owner revokes the key from the keys page', async () => {
    const viewer = await signIn(viewerKey);
    const owner = await signIn(stack.apiKey);
    await mainNav(owner).getByRole('link', { name: 'API keys' }).click();
    await owner.getByRole('button', { name: `Revoke key ${viewerKey.slice(0, 7)}` }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await owner.getByText(/revoked: it is refused from now on/).waitFor();

    await viewer.reload();
    await viewer.getByLabel('API key', { exact: true }).waitFor();
    const res = await fetch(`${stack.services['management-api']!.url}/v1/endpoints/${endpointId}`, {
      headers: { authorization: `Bearer ${viewerKey}` },
    });
    expect(res.status).toBe(401);
    await viewer.context().close();
    await owner.context().close();
  });
});
