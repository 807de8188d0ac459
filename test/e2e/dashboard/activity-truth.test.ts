import type { Page } from 'playwright-core';
import { must } from '@relay/client';
import { flagTarget } from '@relay/store';
import type { TargetCreate } from '@relay/client';
import { eventually } from '../../support/infra';
import { TestReceiver } from '../../support/receiver';
import { launchBrowser, screenshot, signIn } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * The activity view tells the truth about deliveries, in Chromium as a person
 * uses it: a request whose delivery failed and waits for its next attempt reads "Retrying" in the
 * list, with when (and "retrying (next attempt at …)" expanded); Resend asks which targets (all
 * ticked) before it sends — here to one of them only; "Retry failed deliveries" says how many it
 * will queue before it starts, Cancel changes nothing, Retry queues exactly that many.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let failing: TestReceiver;
let healthy: TestReceiver;
let eventId: string;
/** the breaker is not under test: deliberately failing targets must never have it open */
const NEVER_OPENS = {
  failure_rate_pct: 100,
  min_attempts: 100_000,
  window_s: 10,
  cool_down_s: 1,
  flag_after_open_s: 60,
};

const WAIT = 30_000;
const addTarget = (endpointId: string, body: TargetCreate) =>
  must(stack.client.POST('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } }, body }));
const jobs = async () => (await must(stack.client.GET('/v1/bulk-retries'))).data;
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
    const endpoint = await must(stack.client.POST('/v1/endpoints', { body: { name: 'shop' } }));
    // the failing target's next attempt is 10 minutes away: it stays retrying while we look
    await addTarget(endpoint.id, {
      kind: 'webhook',
      name: 'flaky',
      config: { url: failing.url('/hook'), enforce_https: false },
      retry_schedule_ms: [600_000],
      breaker: NEVER_OPENS,
    });
    await addTarget(endpoint.id, {
      kind: 'webhook',
      name: 'steady',
      config: { url: healthy.url('/hook'), enforce_https: false },
    });
    const sent = await fetch(endpoint.ingest_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"order":7}',
    });
    expect(sent.status).toBe(202);
    eventId = sent.headers.get('x-relay-event-id')!;
    await failing.waitForRequests(1, WAIT);
    await healthy.waitForRequests(1, WAIT);

    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpoint.id}/activity`);
    const row = page.locator(`tr[data-event-id="${eventId}"]`);
    await row.waitFor({ timeout: WAIT });
    // the list itself says Retrying, with when — from the listed row, before anything is opened
    await row.getByText('Retrying (ACCEPTED)').waitFor({ timeout: WAIT });
    expect(await row.getByText(/^next attempt \d{2}:\d{2}:\d{2} UTC$/).count()).toBe(1);
    expect(await row.locator('.outcome--retrying').getAttribute('title')).toMatch(
      /next attempt at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/,
    );
    await screenshot(page, 'activity-retrying');
    // still in the spec's Pending group
    await page.getByRole('radio', { name: 'Pending' }).check();
    await row.getByText('Retrying (ACCEPTED)').waitFor({ timeout: WAIT });
    await page.getByRole('radio', { name: 'All' }).check();
    await row.waitFor({ timeout: WAIT });
    await page
      .getByRole('button', { name: /^Show details of the request/ })
      .first()
      .click();
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

  it('"Retry failed deliveries" says there is nothing to retry where no delivery failed for good, and starts nothing', async () => {
    // the shop's one row is retrying, not failed: the Errors group holds nothing to retry
    await page.getByRole('radio', { name: 'Errors' }).check();
    await page.getByRole('button', { name: 'Retry failed deliveries' }).click();
    await visible(/Nothing to retry: no failed delivery in these rows can be sent again/);
    expect(await page.getByRole('group', { name: 'Confirm bulk retry' }).count()).toBe(0);
    expect(await jobs()).toEqual([]);
  });

  it('"Retry failed deliveries" says how many it will queue first; Cancel changes nothing, Retry queues exactly that many', async () => {
    const receiver = await TestReceiver.start();
    let down = true;
    receiver.respondWith(() => (down ? { status: 500, body: 'down' } : { status: 200, body: 'ok' }));
    try {
      const ep = await must(stack.client.POST('/v1/endpoints', { body: { name: 'orders' } }));
      // no retries: each delivery fails for good at its first 500
      await addTarget(ep.id, {
        kind: 'webhook',
        name: 'recovering',
        config: { url: receiver.url('/hook'), enforce_https: false },
        retry_schedule_ms: [],
        breaker: NEVER_OPENS,
      });
      const sent: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(ep.ingest_url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"order":${i}}`,
        });
        expect(res.status).toBe(202);
        sent.push(res.headers.get('x-relay-event-id')!);
      }
      await receiver.waitForRequests(3, WAIT);

      await page.goto(`${stack.dashboardUrl}#/endpoints/${ep.id}/activity?status=errors`);
      // an endpoint's Errors pages are written up to 30 s after the rows (ACTIVITY_INDEX_MAX_WAIT_MS)
      for (const id of sent) await page.locator(`tr[data-event-id="${id}"]`).waitFor({ timeout: 90_000 });

      await page.getByRole('button', { name: 'Retry failed deliveries' }).click();
      const confirm = page.getByRole('group', { name: 'Confirm bulk retry' });
      await confirm.getByText('This queues 3 failed deliveries of 3 events again.').waitFor({ timeout: WAIT });
      await screenshot(page, 'bulk-retry-confirm');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Retry failed deliveries' }).waitFor();
      // nothing started, nothing sent
      expect(await jobs()).toEqual([]);
      expect(receiver.requests).toHaveLength(3);

      down = false;
      await page.getByRole('button', { name: 'Retry failed deliveries' }).click();
      await confirm.getByText('This queues 3 failed deliveries of 3 events again.').waitFor({ timeout: WAIT });
      await confirm.getByRole('button', { name: 'Retry' }).click();
      await visible(/Bulk retry done: 3 rows read, 3 deliveries queued again\./);
      const all = await receiver.waitForRequests(6, WAIT);
      expect(new Set(all.slice(3).map((r) => String(r.headers['x-relay-event-id'])))).toEqual(new Set(sent));
      expect((await jobs()).map((j) => j.progress.deliveries_queued)).toEqual([3]);
    } finally {
      await receiver.close();
    }
  });

  it('"Retry failed deliveries" leaves out a flagged target and a paused one, and names them before it starts', async () => {
    const receivers = await Promise.all([TestReceiver.start(), TestReceiver.start(), TestReceiver.start()]);
    const [flaggedAt, pausedAt, fixedAt] = receivers as [TestReceiver, TestReceiver, TestReceiver];
    let down = true;
    for (const r of receivers) r.respondWith(() => (down ? { status: 500, body: 'down' } : { status: 200 }));
    try {
      const ep = await must(stack.client.POST('/v1/endpoints', { body: { name: 'ledger' } }));
      const add = (name: string, r: TestReceiver) =>
        addTarget(ep.id, {
          kind: 'webhook',
          name,
          config: { url: r.url('/hook'), enforce_https: false },
          retry_schedule_ms: [],
          breaker: NEVER_OPENS,
        });
      const [archive, crm] = [await add('archive', flaggedAt), await add('crm', pausedAt)];
      await add('warehouse', fixedAt);
      const sent: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await fetch(ep.ingest_url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"entry":${i}}`,
        });
        expect(res.status).toBe(202);
        sent.push(res.headers.get('x-relay-event-id')!);
      }
      for (const r of receivers) await r.waitForRequests(2, WAIT);
      // the count is read from the rows and their kept requests: wait until each row holds its three
      // failed deliveries (an attempt that reports after the writer's hold reaches its row a
      // moment later) and its request is kept (it travels apart from the row)
      for (const eventId of sent)
        await eventually(
          async () => {
            const path = { params: { path: { eventId } } };
            const deliveries = (await stack.client.GET('/v1/activity/{eventId}', path)).data?.deliveries ?? [];
            const kept = (await stack.client.GET('/v1/activity/{eventId}/request', path)).response.status === 200;
            return kept && deliveries.length === 3 && deliveries.every((d) => d.state === 'failed');
          },
          90_000,
          `${eventId} with three failed deliveries and its request kept`,
        );
      // as the deliverer flags a target (its destination answered for good that it is gone), and a person pauses one
      await flagTarget(stack.store, archive.id, 'gone (410)', new Date());
      await must(
        stack.client.POST('/v1/endpoints/{endpointId}/targets/{targetId}/pause', {
          params: { path: { endpointId: ep.id, targetId: crm.id } },
        }),
      );
      down = false;

      await page.goto(`${stack.dashboardUrl}#/endpoints/${ep.id}/activity?status=errors`);
      for (const id of sent) await page.locator(`tr[data-event-id="${id}"]`).waitFor({ timeout: 90_000 });
      await page.getByRole('button', { name: 'Retry failed deliveries' }).click();
      const confirm = page.getByRole('group', { name: 'Confirm bulk retry' });
      await confirm
        .getByText(
          'This queues 2 failed deliveries of 2 events again. Left out: 2 deliveries to “archive” (flagged: clear its flag first); 2 deliveries to “crm” (paused: resume it first).',
        )
        .waitFor({ timeout: WAIT });
      await confirm.getByRole('button', { name: 'Retry' }).click();
      await visible(
        /Bulk retry done: 2 rows read, 2 deliveries queued again; 4 deliveries to flagged or paused targets left out\./,
      );
      await fixedAt.waitForRequests(4, WAIT);
      const job = (await jobs()).find((j) => j.filter.endpoint_id === ep.id);
      expect(job!.progress).toMatchObject({ deliveries_queued: 2, deliveries_held: 4 });
      // nothing went to the flagged target; the paused one holds nothing of the job
      expect(flaggedAt.requests).toHaveLength(2);
      expect(pausedAt.requests).toHaveLength(2);
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
    }
  });
});
