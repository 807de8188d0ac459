import { must } from '@relay/client';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * Issue 27, item 3, in Chromium against the real stack: a person signed in with a named key
 * changes a setting and adds a target; the endpoint's Audit history tab then shows both — which
 * fields, which target, by that key's name and prefix, from where — and never the target's token.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let endpointId: string;
let key: { secret: string; prefix: string };

const WAIT = 30_000;
const shoot = (name: string): Promise<void> => screenshot(page, name);
const TOKEN = 'tok-audit-secret-77';

beforeAll(async () => {
  stack = await startDashboardStack('dashboard-audit');
  const created = await must(stack.client.POST('/v1/api-keys', { body: { role: 'editor', name: 'Dana (support)' } }));
  key = { secret: created.secret, prefix: created.prefix };
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'shop' } }))).id;
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(stack.dashboardUrl);
  await page.getByLabel('API key', { exact: true }).fill(key.secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the audit history shows settings and target changes with who and which fields', () => {
  it('a saved rate limit and an added target are both in the endpoint’s Audit history', async () => {
    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}`);
    await page.getByLabel('Rate limit (requests per minute)', { exact: true }).fill('120');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor({ timeout: WAIT });

    await page.getByRole('link', { name: 'Outputs' }).click();
    await page.getByRole('button', { name: 'Add target' }).click();
    const form = page.locator('form.target-form');
    await form.getByLabel('Kind', { exact: true }).selectOption({ label: 'Webhook URL' });
    await form.getByLabel('Target name', { exact: true }).fill('crm');
    await form.getByLabel('Target URL', { exact: true }).fill('https://hooks.example.com/crm');
    await form.getByLabel('Outbound authentication', { exact: true }).selectOption('bearer');
    await form.getByLabel('Token', { exact: true }).fill(TOKEN);
    await form.getByRole('button', { name: 'Add target' }).click();
    await page.locator('.card.target', { has: page.getByRole('heading', { level: 3, name: 'crm', exact: true }) }).waitFor({ timeout: WAIT });

    await page.getByRole('link', { name: 'Audit history' }).click();
    const table = page.locator('section[aria-labelledby="audit-title"] table');
    await table.waitFor({ timeout: WAIT });
    const rows: string[][] = [];
    for (const tr of await table.locator('tbody tr').all()) rows.push((await tr.locator('td').allTextContents()).map((t) => t.trim()));
    // newest first: the target, then the setting, then the endpoint's creation (by the owner key)
    // the What cell carries "by …" too, shown only on a phone where the By column is hidden
    expect(rows[0]).toEqual([expect.any(String), 'Target added', `“crm”by Dana (support) ${key.prefix}`, `Dana (support) ${key.prefix}`, expect.stringMatching(/^(127\.0\.0\.1|::1)$/)]);
    expect(rows[1]).toEqual([expect.any(String), 'Settings changed', `rate_limit_per_minute by Dana (support) ${key.prefix}`.replace(' by', 'by'), `Dana (support) ${key.prefix}`, expect.stringMatching(/^(127\.0\.0\.1|::1)$/)]);
    expect(rows[2]?.[1]).toBe('Endpoint created');
    expect(await page.locator('main').textContent()).not.toContain(TOKEN);

    // the API says the same: per endpoint through the account history too, no secret in any row
    const history = await must(stack.client.GET('/v1/audit', { params: { query: { endpoint_id: endpointId } } }));
    expect(history.data.map((r) => r.action)).toEqual(['target_created', 'endpoint_updated', 'endpoint_created']);
    expect(JSON.stringify(history)).not.toContain(TOKEN);
    await shoot('audit-changes');

    // on a phone the change and who made it are in one visible cell (By and From are for wide screens)
    await page.setViewportSize({ width: 390, height: 844 });
    const phoneWho = table.locator('tbody tr').first().locator('td.audit-what .narrow-only');
    expect(await phoneWho.isVisible()).toBe(true);
    expect(await phoneWho.textContent()).toBe(`by Dana (support) ${key.prefix}`);
  });
});
