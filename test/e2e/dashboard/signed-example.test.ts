import { must } from '@relay/client';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { launchBrowser } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * In Chromium against the real stack: an endpoint with the GitHub preset offers a
 * signed example — the user types the secret in the page (it is never sent to the API), the
 * page signs the sample body, and the shown curl line, run with a real curl, gets 202. The
 * preset picker finds a provider by name and says where its secret is.
 */
const run = promisify(execFile);
const SECRET = "It's a Secret to Everybody";
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let endpointId: string;
const apiCalls: string[] = [];

beforeAll(async () => {
  stack = await startDashboardStack('dash-signed');
  const created = await must(
    stack.client.POST('/v1/endpoints', {
      body: { name: 'repo-events', inbound_auth: { type: 'HMAC', preset: 'github', secrets: [SECRET] } },
    }),
  );
  endpointId = created.id;
  browser = await launchBrowser();
  page = await browser.context.newPage();
  // every request body the page sends, to show the typed secret is not among them
  page.on('request', (req) => apiCalls.push(`${req.url()} ${req.postData() ?? ''}`));
  await page.goto(stack.dashboardUrl);
  await page.getByLabel('API key', { exact: true }).fill(stack.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('signed example and preset picker', () => {
  it('the signed curl line for a GitHub-preset endpoint answers 202, and the secret never left the page', async () => {
    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}`);
    await page.getByRole('heading', { level: 1, name: 'repo-events' }).waitFor();
    await page.getByLabel('Signing secret for an example (stays in this browser)').fill(SECRET);
    await page.getByRole('button', { name: 'Sign an example' }).click();
    const line = (await page.locator('[data-signed-curl]').textContent())!.trim();
    expect(line).toContain("-H 'x-hub-signature-256: sha256=");
    const { stdout } = await run('bash', ['-c', line], { timeout: 15000 });
    expect(/^HTTP\/[\d.]+ (\d{3})/m.exec(stdout)?.[1]).toBe('202');
    expect(apiCalls.filter((c) => c.includes(SECRET))).toEqual([]);
  });

  it('the preset picker finds a provider by name and says what it sends and where the secret is', async () => {
    await page.getByRole('navigation', { name: 'Endpoint sections' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Find a provider').fill('shopi');
    const preset = page.getByLabel('Preset', { exact: true });
    expect(await preset.locator('option').allTextContents()).toEqual(['GitHub (github)', 'Shopify (shopify)']);
    await preset.selectOption('shopify');
    const summary = await page.locator('[data-preset-summary]').textContent();
    expect(summary).toContain('x-shopify-hmac-sha256');
    expect(summary).toContain('Client secret');
  });
});
