import { must } from '@relay/client';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page, Route } from 'playwright-core';
import { eventually } from '../../support/infra';
import { TestReceiver } from '../../support/receiver';
import { launchBrowser, signIn } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * In Chromium against the real stack, as a person uses the pages:
 * controls that say what they do (a confirmation before disabling or deleting, one state line,
 * confirmations where the action was taken and gone after the next one, every form's errors at
 * its fields by label, providers and outcomes by name), then the same pages on a 390×844 phone
 * (a menu on one row, tabs on one row, filters folded, activity rows as cards with the outcome
 * first, no sideways scroll).
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let receiver: TestReceiver;
let browser: Browser;
let page: Page;
let endpointId: string;
let ingestUrl: string;

const WAIT = 30_000;
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 900 };
/** pictures for docs/dashboard/ when DASHBOARD_SCREENSHOTS names a folder (as dashboard.test.ts) */
const SHOTS = process.env.DASHBOARD_SCREENSHOTS;
async function shoot(name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(300); // the last render settles before the picture
  await page.screenshot({
    path: path.join(SHOTS, `${name}-${page.viewportSize()!.width <= PHONE.width ? 'phone' : 'laptop'}.png`),
    fullPage: true,
  });
}

const visible = (text: string | RegExp, within: Page | Locator = page) =>
  within.getByText(text).first().waitFor({ state: 'visible', timeout: WAIT });
const controls = () => page.getByRole('region', { name: 'State controls' });
const stateLine = () => page.locator('[data-state-line]');
const tab = (name: string) => page.getByRole('navigation', { name: 'Endpoint sections' }).getByRole('link', { name });
const send = (body = '{"n":1}') =>
  fetch(ingestUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
/**
 * The actor as the state line names it: the signed-in key's name, if any, and its prefix. The
 * prefix is base64url and may hold `-` (no regex meaning outside a class): matched as itself,
 * not as `\w+`, which failed CI whenever the random prefix had a `-` (about 1 run in 16).
 */
const byKey = () => `(.+ \\()?${stack.apiKey.slice(0, 7)}\\)?`;
/** Whether the page scrolls sideways: its content wider than the window. */
const scrollsSideways = () => page.evaluate('document.documentElement.scrollWidth > window.innerWidth + 1');

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startDashboardStack('dashboard-controls');
  const ep = await must(stack.client.POST('/v1/endpoints', { body: { name: 'orders' } }));
  endpointId = ep.id;
  ingestUrl = ep.ingest_url;
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind: 'webhook', name: 'receiver', config: { url: receiver.url('/hook'), enforce_https: false } },
    }),
  );
  await must(
    stack.client.POST('/v1/endpoints', {
      body: {
        name: 'repo-events',
        inbound_auth: { type: 'HMAC', preset: 'github', secrets: ['gh-secret-0123456789'] },
      },
    }),
  );
  browser = await launchBrowser(LAPTOP);
  page = await browser.context.newPage();
  await signIn(page, stack.dashboardUrl, stack.apiKey);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver?.close();
});

describe('controls that say what they do', () => {
  it('names each endpoint’s sender check in words: a signature preset by its provider beside its code', async () => {
    await visible('signed: GitHub (github)');
    await visible('no sender auth');
  });

  it('asks before disabling; Cancel changes nothing; confirmed, one state line says disabled, by whom, and what senders get', async () => {
    await page.getByRole('link', { name: 'orders', exact: true }).click();
    await expect(stateLine().textContent()).resolves.toBe('Enabled: accepting requests.');
    await page.getByRole('switch', { name: 'Enabled' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable orders?' });
    await dialog.waitFor();
    await visible(/Senders get 404 from now on/, dialog);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(true);
    expect(
      (await must(stack.client.GET('/v1/endpoints/{endpointId}', { params: { path: { endpointId } } }))).enabled,
    ).toBe(true);
    expect((await send()).status).toBe(202);

    await page.getByRole('switch', { name: 'Enabled' }).click();
    await dialog.getByRole('button', { name: 'Disable endpoint' }).click();
    await visible('Endpoint disabled.', controls());
    await eventually(
      async () =>
        new RegExp(`^Disabled by ${byKey()} at .* UTC: senders get 404 until it is enabled again\\.$`).test(
          (await stateLine().textContent()) ?? '',
        ),
      WAIT,
      'the disabled state line',
    );
    expect(await page.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(false);
    await eventually(async () => (await send()).status === 404, WAIT, 'senders to get 404');
  });

  it('clears a confirmation on the next action and shows the new one where it was taken', async () => {
    await page.getByRole('switch', { name: 'Enabled' }).click(); // enabling asks nothing
    await visible('Endpoint enabled.', controls());
    expect(await page.getByText('Endpoint disabled.').count()).toBe(0);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await visible('Endpoint paused.', controls());
    expect(await page.getByText('Endpoint enabled.').count()).toBe(0);
    await eventually(
      async () =>
        new RegExp(`^Paused manually by ${byKey()} at .*: senders get 503 until it is resumed\\.$`).test(
          (await stateLine().textContent()) ?? '',
        ),
      WAIT,
      'the paused state line',
    );
    // Pause and Enabled explain the difference beside them
    expect(await page.getByRole('button', { name: 'Resume' }).getAttribute('aria-describedby')).toBe('pause-hint');
    await visible(/Pause: senders get 503 and retry later/);
    await page.getByRole('button', { name: 'Resume' }).click();
    await visible('Endpoint resumed.', controls());
    await shoot('endpoint-controls');
  });

  it('says a maintenance window’s pause and until when', async () => {
    const now = Date.now();
    const ends = new Date(now + 3_600_000);
    await must(
      stack.client.PATCH('/v1/endpoints/{endpointId}', {
        params: { path: { endpointId } },
        body: {
          maintenance_windows: [{ starts_at: new Date(now - 60_000).toISOString(), ends_at: ends.toISOString() }],
        },
      }),
    );
    await page.reload();
    await eventually(
      async () =>
        ((await stateLine().textContent()) ?? '').startsWith(
          `Paused by a maintenance window until ${ends.toISOString().slice(0, 19).replace('T', ' ')} UTC`,
        ),
      WAIT,
      'the window state line',
    );
    await must(
      stack.client.PATCH('/v1/endpoints/{endpointId}', {
        params: { path: { endpointId } },
        body: { maintenance_windows: [] },
      }),
    );
    await page.reload();
    await eventually(
      async () => (await stateLine().textContent()) === 'Enabled: accepting requests.',
      WAIT,
      'enabled again',
    );
  });

  it('shows “Settings saved.” beside Save, and drops it at the next edit', async () => {
    await page.getByLabel('Rate limit (requests per minute)', { exact: true }).fill('900');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const saved = page.locator('.form-actions').getByText('Settings saved.');
    await saved.waitFor({ timeout: WAIT });
    await page.getByLabel('Rate limit (requests per minute)', { exact: true }).fill('901');
    await saved.waitFor({ state: 'detached', timeout: WAIT });
  });

  it('lists the endpoint form’s problems by field label, each a link to its field', async () => {
    await page.getByLabel('Rate limit (requests per minute)', { exact: true }).fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const summary = page.locator('form.settings .error-summary');
    await summary.waitFor({ timeout: WAIT });
    expect(await summary.locator('p').textContent()).toBe('Not saved: 1 problem, shown at its field.');
    const item = summary.getByRole('button', { name: 'Rate limit (requests per minute)' });
    await item.click();
    await page.locator('#f-rate_limit_per_minute:focus').waitFor({ timeout: WAIT });
    expect(await summary.textContent()).not.toContain('rate_limit_per_minute');
    await page.getByRole('button', { name: 'Discard changes' }).click();
  });

  it('shows the target form’s problems by label in the same way — never an API path', async () => {
    await tab('Outputs').click();
    await page.getByRole('button', { name: 'Add target' }).click();
    const form = page.locator('form.target-form');
    await form.getByLabel('Target name', { exact: true }).fill('crm');
    await form.getByLabel('Target URL', { exact: true }).fill('https://hooks.example.com/crm');
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Header 1 name', { exact: true }).fill('bad header');
    await form.getByLabel('Header 1 value', { exact: true }).fill('x');
    await form.getByRole('button', { name: 'Add target' }).click();
    const summary = form.locator('.error-summary');
    await summary.waitFor({ timeout: WAIT });
    await summary.getByRole('button', { name: 'Header 1 name' }).waitFor();
    expect(await form.locator('[data-field-error="config.custom_headers[0].name"]').textContent()).toContain(
      'is not a valid header name',
    );
    expect(await form.textContent()).not.toMatch(/config\.custom_headers/);
    await shoot('target-errors');
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('asks before disabling or deleting a target, and confirms in the target’s own card', async () => {
    const card = page.locator('.card.target', {
      has: page.getByRole('heading', { level: 3, name: 'receiver', exact: true }),
    });
    const enabled = card.getByRole('switch', { name: 'Enabled' });
    // a slow network: the targets are read again 1 s after each change
    const slowly = async (route: Route) => {
      await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    };
    await page.route('**/v1/endpoints/*/targets', slowly);
    try {
      await enabled.click();
      const dialog = page.getByRole('dialog', { name: 'Disable receiver?' });
      await dialog.getByRole('button', { name: 'Disable target' }).click();
      await visible(/receiver disabled: requests accepted from now on are not delivered to it/, card);
      // the confirmation comes with the switch in the state it confirms, so a click does what it shows
      expect(await enabled.isChecked()).toBe(false);
      await enabled.click();
      await visible('receiver enabled.', card);
      expect(await enabled.isChecked()).toBe(true);
    } finally {
      await page.unroute('**/v1/endpoints/*/targets', slowly);
    }
    expect(await page.getByText(/receiver disabled/).count()).toBe(0);
    await card.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog', { name: 'Delete receiver?' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await card.count()).toBe(1);
  });
});

describe('the same pages on a 390×844 phone', () => {
  beforeAll(async () => {
    // rows of every kind for the cards: accepted and delivered, and a refused media type
    receiver.respondWith({ status: 200, body: 'ok' });
    for (let i = 0; i < 3; i++) expect((await send(`{"n":${i}}`)).status).toBe(202);
    expect(
      (await fetch(ingestUrl, { method: 'POST', headers: { 'content-type': 'image/png' }, body: 'x' })).status,
    ).toBe(415);
    await page.setViewportSize(PHONE);
  });

  it('fits the menu on one row and folds the pages out under Menu', async () => {
    await page.goto(`${stack.dashboardUrl}#/endpoints`);
    const header = page.locator('header.top');
    await page.getByRole('button', { name: 'Menu' }).waitFor();
    const closed = (await header.boundingBox())!;
    expect(closed.height).toBeLessThan(70);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('true');
    await shoot('menu');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Request activity' }).click();
    await page.getByRole('heading', { level: 1, name: 'Request activity' }).waitFor();
    // the menu closes on the new page
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'hidden', timeout: WAIT });
    expect(await scrollsSideways()).toBe(false);
  });

  it('shows activity rows as cards, the outcome first, and folds the filters under one button', async () => {
    const cards = page.locator('table.activity-table tr[data-event-id]');
    await eventually(async () => (await cards.count()) >= 4, WAIT, 'four rows');
    for (const card of (await cards.all()).slice(0, 4)) {
      const outcome = (await card.locator('td.c-outcome').boundingBox())!;
      const time = (await card.locator('td.c-time').boundingBox())!;
      const method = (await card.locator('td.c-method').boundingBox())!;
      // the outcome on the card's first line, above when and how; every part inside the window
      expect(outcome.y).toBeLessThan(time.y);
      expect(outcome.y).toBeLessThan(method.y);
      for (const box of [outcome, time, method]) expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await visible('Unsupported Media Type (UNSUPPORTED_MEDIA_TYPE)');
    expect(await scrollsSideways()).toBe(false);

    const sourceIp = page.getByRole('form', { name: 'Activity filters' }).getByLabel('Source IP', { exact: true });
    expect(await sourceIp.isVisible()).toBe(false);
    expect(await page.getByRole('radio', { name: 'Errors' }).isVisible()).toBe(true);
    await shoot('activity-cards');
    await page.getByRole('button', { name: 'Filters' }).click();
    await sourceIp.fill('127.0.0.1');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('button', { name: 'Hide filters' }).click();
    await page.getByRole('button', { name: 'Filters (1 set)' }).waitFor();
    expect(await sourceIp.isVisible()).toBe(false);
    await page
      .locator('tr[data-event-id]', { hasText: 'Completed (ACCEPTED)' })
      .first()
      .getByRole('button', { name: /^Show details of the request/ })
      .click();
    await visible(/Delivery .* to receiver/);
    expect(await scrollsSideways()).toBe(false);
  });

  it('keeps an endpoint’s tabs on one row', async () => {
    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}/audit`);
    await page.getByRole('heading', { level: 2, name: 'Audit history' }).waitFor();
    const tops = await Promise.all(
      ['Settings', 'Outputs', 'Activity', 'Audit'].map(async (name) => (await tab(name).boundingBox())!.y),
    );
    expect(new Set(tops).size).toBe(1);
    expect(await scrollsSideways()).toBe(false);
    await shoot('endpoint-tabs');
  });
});
