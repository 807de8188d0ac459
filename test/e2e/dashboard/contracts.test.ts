import { must } from '@relay/client';
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, signIn } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * Payload contracts in the dashboard (docs/contracts.md), in Chromium as a person uses them: a
 * schema pasted into the code editor, a payload tried with "Check payload" (the validate dry
 * run, nothing saved or delivered) and its errors shown, the contract saved; a schema that does
 * not compile named when saved.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let endpointId: string;

const WAIT = 30_000;
const SCHEMA = '{"type":"object","required":["id","amount"],"properties":{"amount":{"type":"integer"}}}';

beforeAll(async () => {
  stack = await startDashboardStack('dashboard-contracts');
  const ep = await must(stack.client.POST('/v1/endpoints', { body: { name: 'orders' } }));
  endpointId = ep.id;
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await signIn(page, stack.dashboardUrl, stack.apiKey);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const card = (): Locator => page.locator('form', { has: page.getByRole('heading', { name: 'Payload contracts' }) });
const editor = (): Locator => page.getByRole('textbox', { name: 'Schema 1 JSON Schema' });

/** Pastes text into the code editor, replacing what it shows, as a person pastes. */
async function paste(text: string): Promise<void> {
  await editor().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
  expect(await editor().textContent()).toBe(text);
}

describe('payload contracts in the dashboard', () => {
  it('a pasted schema checks a typed payload, its errors shown, and is saved as the endpoint’s contract', async () => {
    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}/settings`);
    await card().getByLabel('Check payloads against contracts').check();
    await editor().waitFor({ timeout: WAIT });
    await paste(SCHEMA);
    await card().getByLabel('Payload (JSON)').fill('{"amount": "12"}');
    await card().getByRole('button', { name: 'Check payload' }).click();
    const result = card().getByRole('status').filter({ hasText: 'the payload fails' });
    await result.waitFor({ timeout: WAIT });
    expect(await result.locator('p').allTextContents()).toEqual([
      'Schema “*”: the payload fails.',
      '/id is required',
      '/amount must be integer',
    ]);
    // nothing saved or delivered by the check
    expect(
      (await must(stack.client.GET('/v1/endpoints/{endpointId}', { params: { path: { endpointId } } }))).contracts,
    ).toBeNull();

    await card().getByLabel('Payload (JSON)').fill('{"id": "o1", "amount": 12}');
    await card().getByRole('button', { name: 'Check payload' }).click();
    await card().getByRole('status').filter({ hasText: 'Schema “*”: the payload passes.' }).waitFor({ timeout: WAIT });

    await card().getByRole('button', { name: 'Save contracts' }).click();
    await card().getByText('Contracts saved.').waitFor({ timeout: WAIT });
    const saved = await must(stack.client.GET('/v1/endpoints/{endpointId}', { params: { path: { endpointId } } }));
    expect(saved.contracts).toEqual({
      event_type: { from: 'path', path: 'type' },
      mode: 'refuse',
      schemas: [{ event_type: '*', schema: SCHEMA }],
    });
  });

  it('a schema that does not compile is named at its field when saved', async () => {
    await paste('{"type":"strin"}');
    await card().getByRole('button', { name: 'Save contracts' }).click();
    await page
      .getByText(/is not a valid JSON Schema/)
      .first()
      .waitFor({ timeout: WAIT });
  });
});
