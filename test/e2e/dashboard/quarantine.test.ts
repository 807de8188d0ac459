import type { Page } from 'playwright-core';
import { must } from '@relay/client';
import { eventually } from '../../support/infra';
import { TestReceiver } from '../../support/receiver';
import { launchBrowser, screenshot, signIn } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * Quarantine in Chromium, as a person uses it: a sender's request refused by a body filter is
 * opened in the activity view and shown as quarantined with its request; once the filter is
 * changed, "Re-run under the current rules" delivers it, and the new row says what it re-ran.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let receiver: TestReceiver;

const WAIT = 30_000;
const TOKEN = 'sender-token-0123456789';

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startDashboardStack('dashboard-quarantine');
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await signIn(page, stack.dashboardUrl, stack.apiKey);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver?.close();
});

/** An endpoint that takes only bodies with `"paid"`, authenticated, delivering to the receiver. */
async function paymentsEndpoint(name: string): Promise<{ endpointId: string; ingestUrl: string }> {
  const endpoint = await must(
    stack.client.POST('/v1/endpoints', {
      body: {
        name,
        inbound_auth: { type: 'BEARER', tokens: [TOKEN] },
        body_filters: [{ kind: 'contains', value: '"paid"' }],
      },
    }),
  );
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId: endpoint.id } },
      body: { kind: 'webhook', name: 'ledger', config: { url: receiver.url('/hook'), enforce_https: false } },
    }),
  );
  return { endpointId: endpoint.id, ingestUrl: endpoint.ingest_url };
}

const refusedBy = async (ingestUrl: string, body: string): Promise<void> => {
  const res = await fetch(ingestUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body,
  });
  expect(res.status).toBe(400);
};

/** The operator fixes the rule; the gateway has it once a test request passes it. */
async function filterByOrder(endpointId: string): Promise<void> {
  await must(
    stack.client.PATCH('/v1/endpoints/{endpointId}', {
      params: { path: { endpointId } },
      body: { body_filters: [{ kind: 'contains', value: '"order"' }] },
    }),
  );
  await eventually(
    async () =>
      (
        await stack.client.POST('/v1/endpoints/{endpointId}/test', {
          params: { path: { endpointId } },
          body: { body: { probe: true, order: 0 } },
        })
      ).response.status === 202,
    WAIT,
    'the new filter in force',
  );
}

const sentOnce = (body: string): boolean => receiver.requests.filter((q) => q.body.toString() === body).length === 1;

it('a request refused by a body filter is shown quarantined; after the filter changed, Re-run delivers it', async () => {
  const { endpointId, ingestUrl } = await paymentsEndpoint('payments');
  const body = '{"state":"refunded","order":88}';
  await refusedBy(ingestUrl, body);
  const original = await eventually(
    async () =>
      (await must(stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId } } }))).data[0]?.id,
    WAIT,
    'the refused row',
  );

  await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}/activity`);
  const row = page.locator(`tr[data-event-id="${original}"]`);
  await row.waitFor({ timeout: WAIT });
  await row.getByRole('button', { name: /^Show details of the request/ }).click();
  await page.getByText('Quarantined:').waitFor({ timeout: WAIT });
  // the kept request is shown as the sender sent it
  await page.getByText('"refunded"').first().waitFor({ timeout: WAIT });

  await filterByOrder(endpointId);

  await page.getByRole('button', { name: 'Re-run under the current rules' }).click();
  const said = page.getByText(/^Re-run accepted as evt_\w+, sent to 1 target\.$/);
  await said.waitFor({ timeout: WAIT });
  await screenshot(page, 'quarantine-rerun');
  const rerunId = /evt_\w+/.exec((await said.textContent()) ?? '')![0];
  const delivered = await eventually(
    async () => receiver.requests.find((q) => q.headers['x-relay-event-id'] === rerunId),
    WAIT,
    'the re-run delivered',
  );
  expect(delivered.body.toString()).toBe(body);

  // the new row names what it re-ran
  await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}/activity`);
  const newRow = page.locator(`tr[data-event-id="${rerunId}"]`);
  await newRow.waitFor({ timeout: WAIT });
  await newRow.getByRole('button', { name: /^Show details of the request/ }).click();
  await page.getByText(`A re-run of the quarantined request ${original}.`).waitFor({ timeout: WAIT });
  expect(sentOnce(body)).toBe(true);
});

it('"Re-run quarantined requests" says how many first; Cancel runs nothing, Re-run delivers each once', async () => {
  const { endpointId, ingestUrl } = await paymentsEndpoint('refunds');
  const bodies = ['{"state":"refunded","order":1}', '{"state":"refunded","order":2}'];
  for (const b of bodies) await refusedBy(ingestUrl, b);
  await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}/activity?status=errors`);
  await page.locator('tr[data-event-id]').nth(1).waitFor({ timeout: 90_000 });

  const confirm = page.getByRole('group', { name: 'Confirm bulk re-run' });
  const asked = 'This re-runs 2 quarantined requests under the current rules.';
  await page.getByRole('button', { name: 'Re-run quarantined requests' }).click();
  await confirm.getByText(asked).waitFor({ timeout: WAIT });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Re-run quarantined requests' }).waitFor();

  await filterByOrder(endpointId);
  // Cancel ran nothing: only now, under the new filter, would a re-run be accepted
  expect(bodies.some((b) => receiver.requests.some((q) => q.body.toString() === b))).toBe(false);
  await page.getByRole('button', { name: 'Re-run quarantined requests' }).click();
  await confirm.getByText(asked).waitFor({ timeout: WAIT });
  await confirm.getByRole('button', { name: 'Re-run' }).click();
  await page.getByText('Re-run 2 requests: 2 accepted, 0 refused again.').waitFor({ timeout: WAIT });
  await eventually(async () => bodies.every(sentOnce), WAIT, 'both delivered');
});
