import type { Page } from 'playwright-core';
import { must } from '@relay/client';
import { TestReceiver } from '../../support/receiver';
import { launchBrowser, signIn } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * In Chromium against the real stack: names stored before control and invisible format characters
 * were refused (written here straight into the store, as an older release left them) show
 * escaped on every page a person reads them — endpoints, outputs, request activity, API keys,
 * alerts — and a form pre-filled with one saves the escaped text, which the API accepts.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let receiver: TestReceiver;

const WAIT = 30_000;
const STORED = {
  endpoint: 'invoice\u202Efdp.exe',
  target: 'hook\u200B',
  key: 'ci\u2066',
  rule: 'ops\u001b[31m',
};
const SHOWN = {
  endpoint: 'invoice\\u202Efdp.exe',
  target: 'hook\\u200B',
  key: 'ci\\u2066',
  rule: 'ops\\u001B[31m',
};
let endpointId: string;
let eventId: string;

/** a name as an older release stored it: the API refuses these characters now */
const storeName = (model: string, id: string, name: string) =>
  stack.store.connection.model(model).collection.updateOne({ _id: id } as never, { $set: { name } });

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startDashboardStack('dashboard-invisible-names');
  const endpoint = await must(stack.client.POST('/v1/endpoints', { body: { name: 'invoices' } }));
  endpointId = endpoint.id;
  const target = await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind: 'webhook', name: 'hook', config: { url: receiver.url('/hook'), enforce_https: false } },
    }),
  );
  const key = await must(stack.client.POST('/v1/api-keys', { body: { role: 'viewer', name: 'ci' } }));
  const rule = await must(
    stack.client.POST('/v1/alert-rules', {
      body: { name: 'ops', target_ids: [target.id], conditions: [{ kind: 'target_flagged' }] },
    }),
  );
  await storeName('Endpoint', endpointId, STORED.endpoint);
  await storeName('Target', target.id, STORED.target);
  await storeName('ApiKey', key.id, STORED.key);
  await stack.store.connection
    .collection('alert_rules')
    .updateOne({ _id: rule.id } as never, { $set: { name: STORED.rule } });
  const sent = await fetch(endpoint.ingest_url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"invoice":1}',
  });
  expect(sent.status).toBe(202);
  eventId = sent.headers.get('x-relay-event-id')!;
  await receiver.waitForRequests(1, WAIT);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await signIn(page, stack.dashboardUrl, stack.apiKey);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver?.close();
});

const mainNav = () => page.getByRole('navigation', { name: 'Main' });

describe('names with invisible characters stored by an older release', () => {
  it('the Endpoints list and the endpoint’s page show the endpoint’s name escaped', async () => {
    await page.getByRole('link', { name: SHOWN.endpoint, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: SHOWN.endpoint, exact: true }).waitFor({ timeout: WAIT });
    expect(await page.getByText(STORED.endpoint).count()).toBe(0);
  });

  it('Outputs shows the target’s name escaped, and saving its form stores the escaped text', async () => {
    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}`);
    await page.getByRole('link', { name: 'Outputs' }).click();
    const heading = page.getByRole('heading', { level: 3, name: SHOWN.target, exact: true });
    await heading.waitFor({ timeout: WAIT });
    await page.locator('.card.target', { has: heading }).getByRole('button', { name: 'Edit…' }).click();
    const form = page.locator('form.target-form');
    expect(await form.getByLabel('Target name', { exact: true }).inputValue()).toBe(SHOWN.target);
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(`Target ${SHOWN.target} saved.`).waitFor({ timeout: WAIT });
    const [saved] = (
      await must(stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }))
    ).data;
    expect(saved!.name).toBe(SHOWN.target);
  });

  it('Request activity shows the endpoint’s and the target’s names escaped', async () => {
    await mainNav().getByRole('link', { name: 'Request activity' }).click();
    const row = page.locator(`tr[data-event-id="${eventId}"]`);
    await row.waitFor({ timeout: WAIT });
    await row.getByText(SHOWN.endpoint, { exact: true }).waitFor({ timeout: WAIT });
    await row.getByRole('button', { name: /^Show details of the request/ }).click();
    await page.getByText(SHOWN.target, { exact: true }).first().waitFor({ timeout: WAIT });
    expect(await page.getByText(STORED.target, { exact: true }).count()).toBe(0);
  });

  it('API keys and Alerts show the key’s and the rule’s names escaped', async () => {
    await mainNav().getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('cell', { name: SHOWN.key, exact: true }).waitFor({ timeout: WAIT });
    await mainNav().getByRole('link', { name: 'Alerts' }).click();
    await page.getByText(SHOWN.rule, { exact: true }).first().waitFor({ timeout: WAIT });
    expect(await page.getByText(STORED.rule).count()).toBe(0);
  });
});
