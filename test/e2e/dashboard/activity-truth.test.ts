import type { Page } from 'playwright-core';
import { TestReceiver } from '../../support/receiver';
import { launchBrowser, signIn } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * The activity view tells the truth about deliveries (issue 25 item 5), in Chromium as a person
 * uses it: a delivery that failed and waits for its next attempt reads "retrying (next attempt
 * at …)", and Resend asks which targets (all ticked) before it sends — here to one of them only.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let failing: TestReceiver;
let healthy: TestReceiver;
let eventId: string;

const WAIT = 30_000;
const visible = (text: string | RegExp) => page.getByText(text).first().waitFor({ state: 'visible', timeout: WAIT });

beforeAll(async () => {
  failing = await TestReceiver.start();
  healthy = await TestReceiver.start();
  failing.respondWith({ status: 500, body: 'down' });
  stack = await startDashboardStack('dashboard-truth');
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await signIn(page, stack.dashboardUrl, stack.apiKey);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await failing?.close();
  await healthy?.close();
});

describe('the activity view tells the truth about deliveries', () => {
  it('a delivery that failed and waits for its next attempt shows as retrying, with when', async () => {
    const endpoint = (await stack.api('/v1/endpoints', { method: 'POST', body: { name: 'shop' } })).body;
    // the failing target's next attempt is 10 minutes away: it stays retrying while we look
    await stack.api(`/v1/endpoints/${endpoint.id}/targets`, { method: 'POST', body: { kind: 'webhook', name: 'flaky', config: { url: failing.url('/hook'), enforce_https: false }, retry_schedule_ms: [600_000] } });
    await stack.api(`/v1/endpoints/${endpoint.id}/targets`, { method: 'POST', body: { kind: 'webhook', name: 'steady', config: { url: healthy.url('/hook'), enforce_https: false } } });
    const sent = await fetch(endpoint.ingest_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order":7}' });
    expect(sent.status).toBe(202);
    eventId = sent.headers.get('x-relay-event-id')!;
    await failing.waitForRequests(1, WAIT);
    await healthy.waitForRequests(1, WAIT);

    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpoint.id}/activity`);
    await page.locator(`tr[data-event-id="${eventId}"]`).waitFor({ timeout: WAIT });
    await page.getByRole('button', { name: /^Show details of the request/ }).first().click();
    await visible(/retrying \(next attempt at \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(await page.locator('.delivery--retrying').count()).toBe(1);
    expect(await page.locator('.delivery--delivered').count()).toBe(1);
  });

  it('Resend asks which targets, all ticked, and sends only to the one left ticked', async () => {
    await page.getByRole('button', { name: 'Resend…' }).click();
    const picker = page.getByRole('group', { name: 'Resend to' });
    expect(await picker.getByLabel('flaky').isChecked()).toBe(true);
    expect(await picker.getByLabel('steady').isChecked()).toBe(true);
    await picker.getByRole('button', { name: 'Resend to 2 targets' }).waitFor();
    await picker.getByLabel('flaky').uncheck();
    await picker.getByRole('button', { name: 'Resend to 1 target' }).click();
    await visible(/Sent again: 1 new delivery under the same event/);
    const [, again] = await healthy.waitForRequests(2, WAIT);
    expect(again!.headers['x-relay-event-id']).toBe(eventId);
    // nothing more went to the target left out
    await page.locator('.delivery--delivered').nth(1).waitFor({ timeout: WAIT });
    expect(failing.requests).toHaveLength(1);
  });
});
