import type { Page } from 'playwright-core';
import { must } from '@relay/client';
import { eventually } from '../../support/infra';
import { TestReceiver } from '../../support/receiver';
import { launchBrowser, screenshot, signIn } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * In Chromium against the real stack: a person creates an alert rule on the
 * Alerts page (a refused save shows its error at the field), sends a test alert that reaches the
 * webhook receiver and shows in the recent alerts, edits the rule and deletes it.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let receiver: TestReceiver;

const WAIT = 30_000;
const rules = async () => (await must(stack.client.GET('/v1/alert-rules'))).data;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startDashboardStack('dashboard-alerts');
  const ops = await must(stack.client.POST('/v1/endpoints', { body: { name: 'ops' } }));
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId: ops.id } },
      body: { kind: 'webhook', name: 'ops hook', config: { url: receiver.url(), enforce_https: false } },
    }),
  );
  await must(stack.client.POST('/v1/endpoints', { body: { name: 'github' } }));
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await signIn(page, stack.dashboardUrl, stack.apiKey);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver?.close();
});

describe('the Alerts page', () => {
  it('creates a rule from the form: a missing target is shown at the field, then the rule is listed', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    await page.getByRole('button', { name: 'New alert rule' }).click();
    await page.getByLabel('Rule name').fill('GitHub secret rotated?');
    await page.getByLabel('Tell me when').selectOption({ label: 'An endpoint rejects many requests' });
    await page.getByLabel('Endpoint', { exact: true }).selectOption({ label: 'github' });
    await page.getByLabel('Outcome').selectOption('AUTH_FAILED');
    await page.getByLabel('Threshold (%)').fill('80');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.locator('#f-target_ids-error').getByText('must list 1 to 10 target ids').waitFor({ timeout: WAIT });
    await screenshot(page, 'alerts-rule-form');

    await page.getByLabel('ops hook (ops)').check();
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.getByText('Rule “GitHub secret rotated?” created.').waitFor({ timeout: WAIT });
    const row = page.getByRole('row', { name: /GitHub secret rotated\?/ });
    // the condition's label comes from the API's document, fetched beside the rules: wait for it as a person would
    await row.getByRole('cell', { name: 'An endpoint rejects many requests' }).waitFor({ timeout: WAIT });
    await expect(row.getByRole('cell', { name: 'An endpoint rejects many requests' }).count()).resolves.toBe(1);
    const saved = await rules();
    expect(saved).toHaveLength(1);
    expect(saved[0]!.conditions[0]).toMatchObject({
      kind: 'rejection_spike',
      outcome: 'AUTH_FAILED',
      threshold_percent: 80,
      window_minutes: 5,
      min_requests: 20,
    });
  });

  it('sends a test alert: the receiver gets it, and it is listed under recent alerts with its link', async () => {
    await page.getByRole('button', { name: 'Send a test alert of GitHub secret rotated?' }).click();
    await page.getByText('Test alert of “GitHub secret rotated?” queued to 1 of 1 targets.').waitFor({ timeout: WAIT });
    const got = await eventually(
      async () => receiver.requests.map((r) => JSON.parse(r.body.toString('utf8'))).find((b) => b.alert?.test === true),
      WAIT,
      'the test alert at the receiver',
    );
    expect(got.alert).toMatchObject({ rule_name: 'GitHub secret rotated?', kind: 'rejection_spike', test: true });
    const recent = page.getByRole('table', { name: 'Recent alerts' });
    await recent
      .getByText('Test alert: this is how rule “GitHub secret rotated?” tells you')
      .waitFor({ timeout: WAIT });
    expect(await recent.getByRole('link', { name: 'Open the view that explains it' }).getAttribute('href')).toMatch(
      /#\/activity\?endpoint_id=ep_/,
    );
    await screenshot(page, 'alerts');
  });

  it.each([
    ['a laptop', 1366, 800],
    ['a phone', 390, 844],
  ])(
    'on %s (%i×%i) shows the alert’s delivery apart from requests: by the rule’s and the alert’s names, with no request-only actions',
    async (_n, w, h) => {
      await page.setViewportSize({ width: w, height: h });
      const history = (await must(stack.client.GET('/v1/alerts'))).data;
      const delivery = history[0]!.deliveries[0]!;
      await page.goto(`${stack.dashboardUrl}#/endpoints/${delivery.endpoint_id}/activity`);
      await page.reload();
      const row = page.locator(`tr[data-event-id="${delivery.event_id}"]`);
      await row.getByText('Alert delivered', { exact: true }).waitFor({ timeout: WAIT });
      expect(await row.textContent()).toContain('An endpoint rejects many requests · rule “GitHub secret rotated?”');
      expect(await row.textContent()).not.toMatch(/ACCEPTED|al_|ar_/);
      await row.getByRole('button', { name: /^Show details of the alert/ }).click();
      const detail = page.locator(`#detail-${delivery.event_id}`);
      await detail.getByText('Sent by Relay: an alert, not a request a sender made.').waitFor({ timeout: WAIT });
      expect(await detail.textContent()).toContain('GitHub secret rotated?');
      await detail.locator('.delivery--delivered').waitFor({ timeout: WAIT });
      // a request's parts and actions are not offered: no stored request, no resend
      expect(await detail.getByRole('button', { name: 'Resend…' }).count()).toBe(0);
      expect(await detail.textContent()).not.toMatch(/kept only once it is accepted|Error reason|Source IP/);
      expect(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth + 1')).toBe(false);
      await page.setViewportSize({ width: 1366, height: 900 });
    },
  );

  it('on a phone the alerts page fits the screen, the rules’ targets whole', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${stack.dashboardUrl}#/alerts`);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    await page
      .getByRole('row', { name: /GitHub secret rotated\?/ })
      .first()
      .waitFor({ timeout: WAIT });
    expect(await page.evaluate('document.documentElement.scrollWidth > window.innerWidth + 1')).toBe(false);
    for (const cell of await page.locator('main table td').all()) {
      const box = await cell.boundingBox();
      if (box) expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('edits the rule and deletes it after confirming', async () => {
    await page.goto(`${stack.dashboardUrl}#/alerts`);
    await page.getByRole('button', { name: 'Edit GitHub secret rotated?' }).click();
    await expect(page.getByLabel('Threshold (%)').inputValue()).resolves.toBe('80');
    await page.getByLabel('Rule name').fill('GitHub auth failures');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.getByText('Rule “GitHub auth failures” saved.').waitFor({ timeout: WAIT });
    expect((await rules())[0]!.name).toBe('GitHub auth failures');

    await page.getByRole('button', { name: 'Delete GitHub auth failures' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete rule' }).click();
    await page.getByText('Rule “GitHub auth failures” deleted.').waitFor({ timeout: WAIT });
    expect(await rules()).toEqual([]);
    await page.getByText('No alert rules yet.').waitFor();
  });
});
