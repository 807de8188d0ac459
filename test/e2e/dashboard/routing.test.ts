import { must } from '@relay/client';
import type { Locator, Page } from 'playwright-core';
import { TestReceiver } from '../../support/receiver';
import { launchBrowser, signIn } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * Routing rules per target (docs/routing.md) in Chromium, as a person uses
 * them: rules added in the target form (drawn from the `routing` description of
 * `GET /v1/target-kinds`), an event that does not meet them, and its row saying the target was
 * not routed.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let receiver: TestReceiver;
let endpointId: string;

const WAIT = 30_000;
const form = (): Locator => page.locator('form.target-form');
const visible = (text: string | RegExp) => page.getByText(text).first().waitFor({ state: 'visible', timeout: WAIT });

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startDashboardStack('dashboard-routing');
  browser = await launchBrowser();
  page = await browser.context.newPage();
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'shop' } }))).id;
  await signIn(page, stack.dashboardUrl, stack.apiKey);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver?.close();
});

describe('routing rules in the dashboard', () => {
  it('adds a target with two rules in the form; the API keeps them as typed', async () => {
    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}/outputs`);
    await page.getByRole('button', { name: 'Add target' }).click();
    await form().getByLabel('Target name', { exact: true }).fill('sales');
    await form().getByLabel('Target URL', { exact: true }).fill(receiver.url('/sales'));
    await form().getByLabel('Enforce HTTPS', { exact: true }).uncheck();
    await form().getByLabel('Use routing', { exact: true }).check();
    await form().getByLabel('Send when', { exact: true }).selectOption({ label: 'any rule matches' });
    await form().getByRole('button', { name: 'Add rule' }).click();
    await form().getByLabel('Rule 1', { exact: true }).selectOption({ label: 'equals' });
    await form().getByLabel('Rule 1 field path', { exact: true }).fill('type');
    await form().getByLabel('Rule 1 value', { exact: true }).fill('order.paid');
    await form().getByRole('button', { name: 'Add rule' }).click();
    await form().getByLabel('Rule 2', { exact: true }).selectOption({ label: '≥' });
    await form().getByLabel('Rule 2 field path', { exact: true }).fill('amount');
    await form().getByLabel('Rule 2 number', { exact: true }).fill('99.5');
    await form().getByRole('button', { name: 'Add target' }).click();
    await page.getByRole('heading', { level: 3, name: 'sales', exact: true }).waitFor({ timeout: WAIT });
    const [saved] = (
      await must(stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }))
    ).data;
    expect(saved!.routing).toEqual({
      match: 'any',
      rules: [
        { kind: 'equals', path: 'type', value: 'order.paid' },
        { kind: 'gte', path: 'amount', value: 99.5 },
      ],
    });
  });

  it('places a refused rule’s problem at its field: a pattern RE2 cannot run', async () => {
    await page.getByRole('button', { name: 'Edit…' }).click();
    await form().getByLabel('Rule 1', { exact: true }).selectOption({ label: 'matches pattern' });
    await form().getByLabel('Rule 1 pattern (re2)', { exact: true }).fill('^(?!test)');
    await form().getByRole('button', { name: 'Save', exact: true }).click();
    const error = page.locator('[data-field-error="routing.rules[0].pattern"]');
    await error.waitFor({ timeout: WAIT });
    expect(await error.textContent()).toContain('lookahead and lookbehind are not supported');
    await form().getByRole('button', { name: 'Cancel' }).click();
  });

  it('an event that does not meet the rules is not sent, and its row says the target was not routed', async () => {
    const [ep] = (await must(stack.client.GET('/v1/endpoints'))).data;
    const send = (body: unknown) =>
      fetch(ep!.ingest_url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await send({ type: 'order.created', amount: 5 })).status).toBe(202);
    expect((await send({ type: 'order.paid', amount: 5 })).status).toBe(202);
    const [delivered] = await receiver.waitForRequests(1, WAIT);
    expect(JSON.parse(delivered!.body.toString('utf8'))).toEqual({ type: 'order.paid', amount: 5 });

    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}/activity`);
    await page.locator('tr[data-event-id]').nth(1).waitFor({ timeout: WAIT });
    // newest first: the second row is the event no rule matched
    await page
      .getByRole('button', { name: /^Show details of the request/ })
      .nth(1)
      .click();
    await visible('not routed');
    await visible(/the payload did not meet its routing rules/);
    expect(receiver.requests).toHaveLength(1);
  });
});
