import { must } from '@relay/client';
import type { Locator, Page } from 'playwright-core';
import { deleteBrokerNamespace, eventually } from '../../support/infra';
import { TestReceiver } from '../../support/receiver';
import { launchBrowser } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * In Chromium, as a person uses it: a target whose receiver fails shows its
 * open breaker (state, since when, why) on the endpoint's Outputs; Pause holds its deliveries
 * and says so; Resume lets them through, and the held ones arrive; the limits and breaker
 * settings are set in the target's form. docs/delivery-limits.md.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let receiver: TestReceiver;
let failing = true;
const delivered = new Set<string>();
let endpointId = '';

/** generous: the machine these run on is shared, and a render can wait seconds for a core */
const WAIT = 30_000;
const card = (): Locator =>
  page.locator('.card.target', { has: page.getByRole('heading', { level: 3, name: 'flaky receiver', exact: true }) });
const targets = async () =>
  (await must(stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }))).data;
const stateOf = async (): Promise<string> => (await targets())[0]!.breaker_state.state;
const send = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ i }),
    });
    expect(res.status).toBe(202);
  }
};

beforeAll(async () => {
  receiver = await TestReceiver.start();
  receiver.respondWith((req) => {
    if (!failing) delivered.add(String(req.headers['x-relay-event-id']));
    return failing ? { status: 500, body: 'down' } : { status: 200, body: 'ok' };
  });
  stack = await startDashboardStack('dashboard-breaker');
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'shop' } }))).id;
  const target = await stack.client.POST('/v1/endpoints/{endpointId}/targets', {
    params: { path: { endpointId } },
    body: {
      kind: 'webhook',
      name: 'flaky receiver',
      config: { url: receiver.url('/hook'), enforce_https: false },
      retry_schedule_ms: Array(15).fill(1000),
      breaker: { failure_rate_pct: 50, min_attempts: 5, window_s: 10, cool_down_s: 30, flag_after_open_s: 3600 },
    },
  });
  expect(target.response.status).toBe(201);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(stack.dashboardUrl);
  await page.getByLabel('API key', { exact: true }).fill(stack.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor({ timeout: WAIT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (stack) await deleteBrokerNamespace(stack.namespace);
  await receiver?.close();
});

describe('a target’s breaker and Pause / Resume in the dashboard', () => {
  it('shows the open breaker on the target: its state, since when and why', async () => {
    await send(10);
    await eventually(async () => (await stateOf()) === 'open', 60_000, 'the breaker to open');
    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}`);
    await page.getByRole('link', { name: 'Outputs' }).click();
    await card().getByText('Breaker open', { exact: true }).waitFor({ timeout: WAIT });
    const note = card().getByRole('note', { name: 'Breaker of flaky receiver' });
    await note.getByText(/Failing: deliveries are held/).waitFor({ timeout: WAIT });
    expect(await note.textContent()).toMatch(/since .*attempts failed in 10 s/);
    // the limits line of the summary: none set, the webhook kind has none
    await card().getByText('none (default)', { exact: true }).waitFor({ timeout: WAIT });
  });

  it.each([
    ['a laptop', 1366, 800],
    ['a phone', 390, 844],
  ])(
    'on %s (%i×%i) shows the open breaker as it shows a flag: in red, with what happens next and what to do',
    async (_n, w, h) => {
      await page.setViewportSize({ width: w, height: h });
      const note = card().getByRole('note', { name: 'Breaker of flaky receiver' });
      await note.waitFor({ timeout: WAIT });
      expect(await card().getAttribute('class')).toContain('target--stopped');
      expect(await note.getAttribute('class')).toContain('notice--error');
      expect(await note.textContent()).toContain(
        'After 30 s one held delivery is sent as a probe: if it succeeds the breaker closes and the held deliveries go out. Fix the destination meanwhile, or Pause the target to hold its deliveries without probes. Still open after 3600 s, the target is flagged.',
      );
      const box = (await note.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(w);
      expect(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth + 1')).toBe(false);
      await page.setViewportSize({ width: 1366, height: 900 });
    },
  );

  it('Pause holds the target’s deliveries and shows it; Resume lets them through and the held ones arrive', async () => {
    await card().getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByText('flaky receiver paused: its deliveries are held until resumed.').waitFor({ timeout: WAIT });
    await card().getByText('Paused', { exact: true }).waitFor({ timeout: WAIT });
    await card()
      .getByText(/Paused by hand: deliveries are held/)
      .waitFor({ timeout: WAIT });
    expect(await stateOf()).toBe('paused');

    failing = false;
    await send(3);
    await card().getByRole('button', { name: 'Resume', exact: true }).click();
    await page
      .getByText('flaky receiver resumed: held deliveries are sent within a minute.')
      .waitFor({ timeout: WAIT });
    await card().getByRole('button', { name: 'Pause', exact: true }).waitFor({ timeout: WAIT });
    expect(await card().getByText('Paused', { exact: true }).count()).toBe(0);
    expect(await stateOf()).toBe('closed');
    await eventually(async () => delivered.size === 13, 120_000, `the 13 held deliveries (so far ${delivered.size})`);
  }, 180_000);

  it('sets the target’s delivery limits and breaker settings in its form, drawn from their description', async () => {
    await card().getByRole('button', { name: 'Edit…' }).click();
    const form = page.locator('form.target-form');
    await form
      .getByText('Leave Rate and At most in flight empty for the kind’s default (none).')
      .waitFor({ timeout: WAIT });
    await form.getByLabel('Rate', { exact: true }).fill('5');
    await form.getByLabel('Per', { exact: true }).selectOption('minute');
    await form.getByLabel('Probe after (s)', { exact: true }).fill('0');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    // a value the description refuses is named at its field, as the API names it
    await form.getByText('cool_down_s must be an integer from 1 to 3600', { exact: true }).waitFor({ timeout: WAIT });
    expect(await form.getByLabel('Probe after (s)', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Probe after (s)', { exact: true }).fill('15');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Target flaky receiver saved.').waitFor({ timeout: WAIT });
    await card().getByText('5 a minute', { exact: true }).waitFor({ timeout: WAIT });
    const [t] = await targets();
    expect(t!.limits).toEqual({ rate: 5, per: 'minute', max_in_flight: null });
    expect(t!.breaker).toMatchObject({ cool_down_s: 15, min_attempts: 5, window_s: 10 });
  });
});
