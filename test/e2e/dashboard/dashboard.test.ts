import { must } from '@relay/client';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { eventually } from '../../support/infra';
import { TestReceiver } from '../../support/receiver';
import { launchBrowser, screenshot } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) against the real
 * stack — every service a process on the real RabbitMQ, Redis and FerretDB — as a person would
 * use it: sign in, create an endpoint, add a webhook target, send the request the page's curl
 * line shows with a real curl, watch its row turn Completed and expand it, pause and resume,
 * filter by Errors after a failing target.
 *
 * DASHBOARD_SCREENSHOTS=<dir> also saves each main page at laptop and phone width
 * (docs/dashboard.md shows them).
 */
const run = promisify(execFile);
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let receiver: TestReceiver;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  // the first permanent failure flags a target, so the flag is seen on the page without five
  stack = await startDashboardStack('dashboard', { 'webhook-deliverer': { FLAG_AFTER_PERMANENT_FAILURES: '1' } });
  browser = await launchBrowser();
  page = await browser.context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver?.close();
});

const shoot = (name: string): Promise<void> => screenshot(page, name);

/** Runs the curl line exactly as the page shows it, with the real curl; returns the HTTP status. */
async function sendShownCurl(): Promise<number> {
  const line = (await page.locator('[data-curl]').textContent())!.trim();
  expect(line.startsWith('curl ')).toBe(true);
  const { stdout } = await run('bash', ['-c', line], { timeout: 15000 });
  const status = /^HTTP\/[\d.]+ (\d{3})/m.exec(stdout);
  return Number(status![1]);
}

/** The account's endpoints and an endpoint's targets, as the API has them after a step in the page. */
const endpoints = async () => (await must(stack.client.GET('/v1/endpoints'))).data;
const targetsOf = async (endpointId: string) =>
  (await must(stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }))).data;
const visible = (text: string | RegExp, timeout = 30000) =>
  page.getByText(text).first().waitFor({ state: 'visible', timeout });
const endpointTab = (name: string) =>
  page.getByRole('navigation', { name: 'Endpoint sections' }).getByRole('link', { name });
/**
 * Opens a page from the main navigation and waits for its heading: the click returns before the
 * hash change renders, and until then the page before it (an activity list full of links named
 * after the endpoint) is still what a locator finds.
 */
async function openMain(name: 'Endpoints' | 'Request activity' | 'Usage' | 'API keys'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}
/** An endpoint's link in the endpoints list (the activity rows link to it by the same name). */
const endpointLink = (name: string) =>
  page.getByRole('table', { name: 'Endpoints and their state' }).getByRole('link', { name, exact: true });

describe('dashboard in Chromium against the real stack', () => {
  it('signs in with an API key into an HttpOnly, SameSite=Strict session the page script cannot read', async () => {
    // the browser's own request for the page's script: answered compressed
    const script = page.waitForResponse((r) => /\/assets\/[^/]+\.js$/.test(r.url()));
    await page.goto(stack.dashboardUrl);
    expect((await (await script).allHeaders())['content-encoding']).toMatch(/^(gzip|br)$/);
    await page.getByLabel('API key', { exact: true }).waitFor();
    await shoot('sign-in');
    await page.getByLabel('API key', { exact: true }).fill('rk_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible('That API key is not valid.');
    // by keyboard alone: type the key, Enter submits
    await page.getByLabel('API key', { exact: true }).fill('');
    await page.getByLabel('API key', { exact: true }).focus();
    await page.keyboard.type(stack.apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();

    const [cookie] = await browser.context.cookies();
    expect(cookie).toMatchObject({ name: 'relay_session', httpOnly: true, sameSite: 'Strict', secure: false });
    expect(cookie!.value).not.toContain(stack.apiKey);
    expect(await page.evaluate('document.cookie')).toBe('');
  });

  it('creates an endpoint and places the API validation message at its field', async () => {
    await page.getByLabel('Name').fill('orders');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByRole('heading', { level: 1, name: 'orders' }).waitFor();
    await visible('Accepting requests.');

    const rate = page.getByLabel('Rate limit (requests per minute)');
    await rate.fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const error = page.locator('[data-field-error="rate_limit_per_minute"]');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/\S/);
    expect(await rate.getAttribute('aria-invalid')).toBe('true');
    // the message is the control's description: a screen reader reads it with the field
    expect(await rate.getAttribute('aria-describedby')).toContain(await error.getAttribute('id'));
    await rate.fill('1200');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await visible('Settings saved.');
    const [ep] = await endpoints();
    expect(ep).toMatchObject({ name: 'orders', rate_limit_per_minute: 1200 });
  });

  it('adds a webhook target pointing at a receiver', async () => {
    await endpointTab('Outputs').click();
    await page.getByRole('button', { name: 'Add target' }).click();
    await page.getByLabel('Target name').fill('receiver');
    await page.getByLabel('Target URL').fill(receiver.url('/hook'));
    await page.getByLabel('Enforce HTTPS').uncheck();
    await page.getByRole('button', { name: 'Add target' }).click();
    await page.getByRole('heading', { level: 3, name: 'receiver' }).waitFor();
    await shoot('outputs');
  });

  it('sends the shown curl line with a real curl, and its row turns Completed and expands to its delivery', async () => {
    expect(await sendShownCurl()).toBe(202);
    const [delivered] = await receiver.waitForRequests(1, 15000);
    expect(JSON.parse(delivered!.body.toString())).toEqual({ hello: 'relay' });

    await endpointTab('Request activity').click();
    // a new page moves focus to its content, as a page load would
    // (after the new page renders: waited for, bounded, never read at one instant)
    // (a locator, not a string predicate: the page's CSP forbids the eval Playwright polls a string with)
    await page.locator('#main:focus').waitFor({ timeout: 10000 });
    await visible('Completed (ACCEPTED)'); // the live tail brings it in
    const expander = page.getByRole('button', { name: /^Show details of the request/ }).first();
    await expander.focus();
    await page.keyboard.press('Enter');
    expect(
      await page
        .getByRole('button', { name: /^Hide details of the request/ })
        .first()
        .getAttribute('aria-expanded'),
    ).toBe('true');
    await visible(/HTTP 200/);
    await visible(delivered!.headers['x-relay-event-id'] as string);
    await visible(/Delivery latency/);
    await shoot('activity-endpoint');
  });

  it('pauses: senders get 503; resumes: 202 again, each recorded in the audit history', async () => {
    await endpointTab('Settings').click();
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await visible('Endpoint paused.');
    await visible(/Paused manually by rk_/);
    expect(await sendShownCurl()).toBe(503);

    await page.getByRole('button', { name: 'Resume' }).click();
    await visible('Endpoint resumed.');
    expect(await sendShownCurl()).toBe(202);
    await receiver.waitForRequests(2, 15000);
    await shoot('endpoint');

    await endpointTab('Audit history').click();
    await page.getByRole('cell', { name: 'Resumed', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'Paused', exact: true }).count()).toBe(1);
    await shoot('audit');
  });

  it('filters by Errors after a failing target, in the cross-endpoint view', async () => {
    receiver.respondWith({
      status: 400,
      headers: { 'content-type': 'text/plain', 'set-cookie': 'sid=receiver-secret', 'x-request-id': 'rq-77' },
      body: 'no thanks',
    });
    await endpointTab('Settings').click();
    expect(await sendShownCurl()).toBe(202);
    await receiver.waitForRequests(3, 15000);

    await openMain('Request activity');
    await page.getByText('Errors', { exact: true }).click();
    await visible('Delivery failed (ACCEPTED)');
    expect(await page.getByText('Completed (ACCEPTED)').count()).toBe(0);
    await page
      .getByRole('button', { name: /^Show details of the request/ })
      .first()
      .click();
    await visible(/HTTP 400/);
    // what the receiver answered: status and time, headers with the cookie
    // redacted, the body — opened as a person would
    await page.getByText(/^Attempt 1: answered HTTP 400 in \d/).click();
    const answer = page.locator('details.attempt-response[open]');
    await answer.getByRole('cell', { name: 'rq-77' }).waitFor();
    expect(await answer.getByRole('row', { name: /set-cookie/ }).textContent()).toContain('[redacted]');
    expect(await answer.locator('pre.payload').textContent()).toBe('no thanks');
    expect(await page.content()).not.toContain('receiver-secret');
    const failedId = (await page.locator('tr[data-event-id]').first().getAttribute('data-event-id'))!;
    const row = await must(stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId: failedId } } })); // checked against the OpenAPI document
    expect(row.deliveries[0]!.attempts[0]!.response).toMatchObject({
      body: 'no thanks',
      body_truncated: false,
      headers: { 'x-request-id': 'rq-77', 'set-cookie': '[redacted]' },
    });
    await shoot('activity');

    await page.getByText('All', { exact: true }).click();
    await visible('Completed (ACCEPTED)');
    expect(await page.getByRole('cell', { name: 'orders' }).count()).toBeGreaterThanOrEqual(3);
  });

  it('shows the flagged target with why and how to clear it, and clears the flag', async () => {
    await openMain('Endpoints');
    await endpointLink('orders').click();
    await endpointTab('Outputs').click();
    await visible('Deliveries to this target are stopped');
    await visible(/HTTP 400/);
    await visible(/then clear the flag/);
    await shoot('outputs-flagged');
    receiver.respondWith({ status: 200, body: 'ok' });
    await page.getByRole('button', { name: 'Clear flag' }).click();
    await visible('Flag of receiver cleared.');
    const [ep] = await endpoints();
    const [target] = await targetsOf(ep!.id);
    expect(target!.flagged).toBeNull();
  });

  it('resends the failed event from its expanded row: same event id, a new delivery, delivered', async () => {
    await openMain('Request activity');
    await page.getByText('Errors', { exact: true }).click();
    await visible('Delivery failed (ACCEPTED)');
    const failed = (await page.locator('tr[data-event-id]').first().getAttribute('data-event-id'))!;
    await page
      .getByRole('button', { name: /^Show details of the request/ })
      .first()
      .click();
    // Resend asks which targets (all ticked) and confirms
    await page.getByRole('button', { name: 'Resend…' }).click();
    await page.getByRole('button', { name: 'Resend to 1 target' }).click();
    await visible(/Sent again: 1 new delivery under the same event/);
    const requests = await receiver.waitForRequests(4, 15000);
    expect(requests[3]!.headers['x-relay-event-id']).toBe(failed);
    expect(requests[3]!.headers['x-relay-delivery-id']).not.toBe(requests[2]!.headers['x-relay-delivery-id']);
    // the row now shows both deliveries: the failed one and the resent one, delivered
    await page.locator('.delivery--delivered').first().waitFor({ timeout: 30000 });
    expect(await page.locator('.delivery--failed').count()).toBe(1);
  });

  it('retries every failed delivery of the Errors view as a bulk retry job, with its progress', async () => {
    receiver.respondWith({ status: 400, body: 'down again' });
    const [ep] = await endpoints();
    const sent = await fetch(ep!.ingest_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"bulk":1}',
    });
    expect(sent.status).toBe(202);
    // the 202 names the event in X-Relay-Event-Id (its body is the spec's fixed one)
    const bulkEvent = sent.headers.get('x-relay-event-id')!;
    expect(bulkEvent).toMatch(/^evt_/);
    await receiver.waitForRequests(5, 15000);
    // the receiver is fixed: clear the flag its failure set, then retry from the Errors view
    const [target] = await targetsOf(ep!.id);
    const at = { params: { path: { endpointId: ep!.id, targetId: target!.id } } };
    await eventually(
      async () => (await must(stack.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', at))).flagged !== null,
      15000,
      'the target to be flagged',
    );
    await must(stack.client.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}/flag', at));
    receiver.respondWith({ status: 200, body: 'ok' });

    await openMain('Request activity');
    await page.getByText('Errors', { exact: true }).click();
    // this event's own row, once the writer has it as failed (the live tail brings it in): an
    // earlier failed row on the page says nothing of whether this one is in the log yet
    await page.locator(`tr[data-event-id="${bulkEvent}"]`).waitFor({ timeout: 30000 });
    await page.getByRole('button', { name: 'Retry failed deliveries' }).click();
    // it says how many first, and starts only when confirmed
    const confirm = page.getByRole('group', { name: 'Confirm bulk retry' });
    await confirm.getByText('This queues 1 failed delivery of 1 event again.').waitFor({ timeout: 30000 });
    await confirm.getByRole('button', { name: 'Retry' }).click();
    await visible(/Bulk retry done: \d+ rows? read, 1 delivery queued again/);
    const requests = await receiver.waitForRequests(6, 15000);
    expect(JSON.parse(requests[5]!.body.toString())).toEqual({ bulk: 1 });
  });

  it('sends a test request from the endpoint page; its row is in the Test group', async () => {
    await openMain('Endpoints');
    await endpointLink('orders').click();
    await page.getByRole('button', { name: 'Send test request' }).click();
    await visible(/Test request accepted as evt_\w+, delivered to 1 target/);
    const requests = await receiver.waitForRequests(7, 15000);
    expect(JSON.parse(requests[6]!.body.toString())).toMatchObject({ test: true });
    await page.getByRole('link', { name: 'Show Test rows' }).click();
    await page.getByRole('radio', { name: 'Test' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Test' }).isChecked()).toBe(true);
    await page.getByText('Test', { exact: true }).and(page.locator('.badge')).first().waitFor({ timeout: 30000 });
    expect(await page.locator('tr[data-event-id]').count()).toBe(1);
    await shoot('activity-test');
  });

  it('shows usage, and the endpoints list with each state and who set it', async () => {
    await openMain('Usage');
    // test requests and resends count against no quota: only the senders' 4 accepted requests
    await visible(/^4 of [\d,]+ accepted events/);
    await shoot('usage');

    const paused = await must(stack.client.POST('/v1/endpoints', { body: { name: 'billing' } }));
    await must(stack.client.POST('/v1/endpoints/{endpointId}/pause', { params: { path: { endpointId: paused.id } } }));
    const disabled = await must(stack.client.POST('/v1/endpoints', { body: { name: 'legacy' } }));
    await must(
      stack.client.POST('/v1/endpoints/{endpointId}/disable', { params: { path: { endpointId: disabled.id } } }),
    );
    await openMain('Endpoints');
    await endpointLink('legacy').waitFor();
    const actor = stack.apiKey.slice(0, 7);
    await visible(`Paused manually by ${actor}`);
    await visible(`Disabled by ${actor}`);
    await shoot('endpoints');

    // the keys page lists the signed-in key by its prefix and role, never a secret
    await openMain('API keys');
    await page.getByRole('cell', { name: `${actor}…` }).waitFor();
    expect(await page.content()).not.toContain(stack.apiKey);
    await shoot('api-keys');
  });

  it('signs out: the session ends and the page asks for a key again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key', { exact: true }).waitFor();
    expect(await browser.context.cookies()).toEqual([]);
  });
});
