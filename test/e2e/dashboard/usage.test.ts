import { must } from '@relay/client';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * In Chromium against the real stack: requests accepted by the real gateway
 * show on the Usage page per day and per endpoint, against the plan — counted by the gateway's
 * admit script, read by GET /v1/billing/usage/daily.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;

const WAIT = 30_000;
const shoot = (name: string): Promise<void> => screenshot(page, name);

beforeAll(async () => {
  stack = await startDashboardStack('dashboard-usage');
  browser = await launchBrowser();
  page = await browser.context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const send = async (ingestUrl: string): Promise<number> =>
  (await fetch(ingestUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' })).status;

describe('Usage over time', () => {
  it('shows accepted events per day and per endpoint against the plan', async () => {
    // a plan far above the traffic: the low volume an operator sees in a first week
    await must(stack.client.PATCH('/v1/account/plan', { body: { monthly_accepted_events: 100_000 } }));
    const orders = await must(stack.client.POST('/v1/endpoints', { body: { name: 'orders' } }));
    const billing = await must(stack.client.POST('/v1/endpoints', { body: { name: 'billing' } }));
    for (let i = 0; i < 3; i++) expect(await send(orders.ingest_url)).toBe(202);
    expect(await send(billing.ingest_url)).toBe(202);

    const daily = await must(stack.client.GET('/v1/billing/usage/daily'));
    const today = new Date().toISOString().slice(0, 10);
    expect(daily.days.at(-1)).toEqual({ date: today, accepted_events: 4 });
    expect(daily.endpoints.map((e) => [e.name, e.accepted_events])).toEqual([
      ['orders', 3],
      ['billing', 1],
    ]);

    await page.goto(stack.dashboardUrl);
    await page.getByLabel('API key', { exact: true }).fill(stack.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
    const perEndpoint = page.locator('table.usage-endpoints');
    await perEndpoint.waitFor({ timeout: WAIT });
    const rows: string[][] = [];
    for (const tr of await perEndpoint.locator('tbody tr').all())
      rows.push((await tr.locator('td').allTextContents()).map((t) => t.trim()));
    const limit = daily.limit;
    expect(limit).toBe(100_000);
    // 0.003 % and 0.001 %: small, and said so, never "0.0%"
    expect(rows).toEqual([
      ['orders', '3', '<0.1%', '3'],
      ['billing', '1', '<0.1%', '1'],
    ]);
    const lastDay = (await page.locator('table.usage-days tbody tr').last().locator('td').allTextContents()).map((t) =>
      t.trim(),
    );
    expect(lastDay).toEqual([today, '4', `4 of ${limit.toLocaleString('en-US')}`]);
    expect(await page.locator('.usage-bar').count()).toBe(daily.days.length);
    // today's 4 events against a pace of 3,333 a day: a bar that can be seen
    for (const size of [
      { width: 1366, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      expect((await page.locator('.usage-bar').last().boundingBox())!.height).toBeGreaterThanOrEqual(3);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await shoot('usage-over-time');
  });
});
