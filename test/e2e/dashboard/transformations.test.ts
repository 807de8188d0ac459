import { must } from '@relay/client';
import type { Locator, Page } from 'playwright-core';
import { eventually } from '../../support/infra';
import { TestReceiver } from '../../support/receiver';
import type { CapturedRequest } from '../../support/receiver';
import { launchBrowser, screenshot, signIn } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * Transformations in the dashboard (docs/transformations.md "In the dashboard"), in Chromium as
 * a person uses them: code typed into the editor, previewed on the endpoint's last requests
 * (nothing delivered), saved as versions, two versions compared, one restored, the
 * transformation removed, a target's own saved — each checked by what the receiver then gets;
 * then an activity row opened, whose attempt shows the versions that ran, their console lines
 * and a failure's line.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let receiver: TestReceiver;
let endpointId: string;
let ingestUrl: string;
/** the page's console errors that a Content Security Policy refused something */
const refused: string[] = [];
/** the scripts the page fetched */
const scripts: string[] = [];

const WAIT = 30_000;
const V1 = `(request) => { console.log('order', request.body.order); return { ...request, body: { order: request.body.order, total: request.body.amount / 100 } }; }`;
const V2 = `(request) => ({ ...request, body: { order: request.body.order, total: request.body.amount / 100, currency: 'EUR' } })`;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startDashboardStack('dashboard-transformations');
  const ep = await must(stack.client.POST('/v1/endpoints', { body: { name: 'orders' } }));
  endpointId = ep.id;
  ingestUrl = ep.ingest_url;
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: {
        kind: 'webhook',
        name: 'partner',
        config: {
          url: receiver.url('/partner'),
          enforce_https: false,
          // a transformation's headers reach the receiver as the target forwards headers
          forward_headers: { mode: 'all' },
        },
      },
    }),
  );
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('request', (r) => {
    if (/\/assets\/[^/]+\.js$/.test(r.url())) scripts.push(r.url());
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
  await signIn(page, stack.dashboardUrl, stack.apiKey);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver?.close();
});

/** Sends one order to the ingest URL; its event id. */
async function send(order: string, amount: number): Promise<string> {
  const res = await fetch(ingestUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ order, amount, noise: 'x' }),
  });
  expect(res.status).toBe(202);
  return res.headers.get('x-relay-event-id')!;
}

const deliveriesOf = (eventId: string): CapturedRequest[] =>
  receiver.requests.filter((q) => q.headers['x-relay-event-id'] === eventId);

/** The one delivery of an event, once it arrived. */
const delivered = (eventId: string): Promise<CapturedRequest> =>
  eventually(async () => deliveriesOf(eventId)[0], WAIT, `${eventId} delivered`);

const bodyOf = (q: CapturedRequest): unknown => JSON.parse(q.body.toString('utf8'));

const editor = (p: Page = page): Locator => p.getByRole('textbox', { name: 'Transformation code' });

/**
 * Replaces the editor's text by typing, as a person does: select all, delete, type (a bracket
 * typed over a selection would wrap it). The editor closes brackets and quotes as they open;
 * typing the closing one steps over it, so the text ends as typed.
 */
async function typeCode(code: string): Promise<void> {
  await editor().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(code);
  expect(await editorText()).toBe(code);
}

const editorText = async (p: Page = page): Promise<string> => (await editor(p).textContent()) ?? '';

/** a labelled block of a preview card: Input, Output, Console */
const shown = (card: Locator, label: string): Locator => card.locator(`pre[aria-label="${label}"]`);
const status = (): Locator => page.locator('[data-tx-status]');
const saidOk = (text: string) => page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: WAIT });

describe('a transformation written, previewed, saved, compared, restored and removed in the dashboard', () => {
  const sent: string[] = [];

  it('previews a typed draft on the last requests: each request’s changed output, changes and console', async () => {
    sent.push(await send('A-1', 1250), await send('A-2', 990));
    for (const eventId of sent) await delivered(eventId);
    // the preview reads the stored requests of the activity log
    for (const eventId of sent)
      await eventually(
        async () => (await stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } })).data,
        WAIT,
        `${eventId} stored`,
      );

    // the editor's chunk is fetched when the tab opens, not with the page
    expect(scripts.some((u) => u.includes('/code-editor-'))).toBe(false);
    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}/transformation`);
    await page.getByRole('heading', { level: 2, name: 'Transformation' }).waitFor();
    await editor().waitFor({ timeout: WAIT });
    expect(scripts.some((u) => u.includes('/code-editor-'))).toBe(true);
    expect(await status().textContent()).toBe('No transformation: requests are delivered as received.');
    await typeCode(V1);
    await page.getByRole('button', { name: 'Preview on last requests' }).click();
    await saidOk('Tried on the last 2 requests; nothing was delivered.');

    const card = page.locator(`li[data-event-id="${sent[0]}"]`);
    expect(await card.locator('strong').textContent()).toBe('3 changes.');
    expect(await card.getByRole('list', { name: 'Changes' }).getByRole('listitem').allTextContents()).toEqual([
      '− body.amount: 1250',
      '− body.noise: "x"',
      '+ body.total: 12.5',
    ]);
    expect(await shown(card, 'Console').textContent()).toBe('order A-1');
    const output = JSON.parse((await shown(card, 'Output').textContent())!) as { body: unknown };
    expect(output.body).toEqual({ order: 'A-1', total: 12.5 });
    const input = JSON.parse((await shown(card, 'Input').textContent())!) as { body: unknown };
    expect(input.body).toEqual({ order: 'A-1', amount: 1250, noise: 'x' });
    expect(await page.locator(`li[data-event-id="${sent[1]}"] strong`).textContent()).toBe('3 changes.');
    await screenshot(page, 'transformation');
    // the editor's styles and chunk load under the page's own CSP
    expect(refused).toEqual([]);
  });

  it('shows a draft that throws failing at its line in the preview', async () => {
    await typeCode(`(request) => { throw new Error('no order ' + request.body.order); }`);
    await page.getByRole('button', { name: 'Preview on last requests' }).click();
    await page
      .locator(`li[data-event-id="${sent[0]}"] strong`)
      .filter({ hasText: 'Failed at line 1: Error: no order A-1' })
      .waitFor({ timeout: WAIT });
    expect(await shown(page.locator(`li[data-event-id="${sent[0]}"]`), 'Output').textContent()).toBe('none');
  });

  it('saves the draft as version 1: the next event is delivered changed, and the previewed ones were not sent again', async () => {
    await typeCode(V1);
    await page.getByRole('button', { name: 'Save as version 1' }).click();
    await saidOk('Saved as version 1: it runs on deliveries from now on.');
    expect(await status().textContent()).toBe('Version 1 runs on every delivery.');
    // saved as typed
    const saved = await must(
      stack.client.GET('/v1/endpoints/{endpointId}/transformation', { params: { path: { endpointId } } }),
    );
    expect(saved).toMatchObject({ active_version: 1, code: V1 });
    const eventId = await send('A-3', 4200);
    expect(bodyOf(await delivered(eventId))).toEqual({ order: 'A-3', total: 42 });
    // a later event delivered is the barrier: the previews sent nothing
    expect(sent.map((e) => deliveriesOf(e).length)).toEqual([1, 1]);
  });

  it('saves version 2 and shows what changed between the two, line by line', async () => {
    await typeCode(V2);
    expect(await status().textContent()).toContain('Unsaved changes');
    await page.getByRole('button', { name: 'Save as version 2' }).click();
    await saidOk('Saved as version 2: it runs on deliveries from now on.');
    expect(bodyOf(await delivered(await send('A-4', 100)))).toEqual({ order: 'A-4', total: 1, currency: 'EUR' });

    const versions = page.getByRole('table', { name: 'Versions' });
    const rows = await versions.locator('tbody tr').all();
    expect(await Promise.all(rows.map((r) => r.getAttribute('data-version')))).toEqual(['2', '1']);
    await versions.locator('tr[data-version="2"]').getByText('runs now').waitFor();
    expect(await versions.locator('tr[data-version="1"] td').nth(2).textContent()).toContain(
      `${stack.apiKey.slice(0, 7)}…`,
    );
    await page.getByLabel('Compare', { exact: true }).selectOption('1');
    await page.getByLabel('with', { exact: true }).selectOption('2');
    await page.getByRole('button', { name: 'Show changes' }).click();
    const diff = page.locator('pre[aria-label="Changes from version 1 to version 2"]');
    await diff.waitFor({ timeout: WAIT });
    expect(await diff.locator('del').allTextContents()).toEqual([`- ${V1}`]);
    expect(await diff.locator('ins').allTextContents()).toEqual([`+ ${V2}`]);
  });

  it('restores version 1 as version 3: the next event is delivered as version 1 makes it', async () => {
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await saidOk('Version 1 restored as version 3: it runs on deliveries from now on.');
    expect(await editorText()).toBe(V1);
    const versions = page.getByRole('table', { name: 'Versions' });
    expect(await versions.locator('tr[data-version="3"] td').nth(3).textContent()).toBe('restored version 1');
    expect(bodyOf(await delivered(await send('A-5', 250)))).toEqual({ order: 'A-5', total: 2.5 });
  });

  it('removes the transformation: the next event is delivered as it was sent; the versions stay', async () => {
    await page.getByRole('button', { name: 'Remove…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove transformation' }).click();
    await saidOk('Removed: nothing runs now.');
    expect(await status().textContent()).toBe(
      'Removed: nothing runs. The newest version is shown; save or restore one to run it again.',
    );
    expect(bodyOf(await delivered(await send('A-6', 700)))).toEqual({ order: 'A-6', amount: 700, noise: 'x' });
    expect(await page.getByRole('table', { name: 'Versions' }).locator('tbody tr').count()).toBe(3);
  });

  it('saves a target’s own transformation from its card on the Outputs tab', async () => {
    await page.getByRole('navigation', { name: 'Endpoint sections' }).getByRole('link', { name: 'Outputs' }).click();
    await page.getByRole('link', { name: 'Transformation of partner' }).click();
    await editor().waitFor({ timeout: WAIT });
    expect(await page.getByLabel('Applies to', { exact: true }).locator('option:checked').textContent()).toBe(
      'Target partner',
    );
    expect(await status().textContent()).toBe('No transformation: requests are delivered as received.');
    await typeCode(`(request) => ({ ...request, headers: { ...request.headers, 'x-partner': 'yes' } })`);
    await page.getByRole('button', { name: 'Save as version 1' }).click();
    await saidOk('Saved as version 1');
    const got = await delivered(await send('A-7', 5));
    expect([got.headers['x-partner'], bodyOf(got)]).toEqual(['yes', { order: 'A-7', amount: 5, noise: 'x' }]);
  });

  it('shows a viewer the code and versions read-only, with nothing to save, preview, restore or remove', async () => {
    const key = await must(stack.client.POST('/v1/api-keys', { body: { role: 'viewer', name: 'auditor' } }));
    const viewer = await (await browser.newContext()).newPage();
    await signIn(viewer, stack.dashboardUrl, key.secret);
    await viewer.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}/transformation`);
    await editor(viewer).waitFor({ timeout: WAIT });
    expect(await editor(viewer).getAttribute('aria-readonly')).toBe('true');
    expect(await editor(viewer).getAttribute('contenteditable')).toBe('false');
    // removed, so the newest version's code is shown: fetched after the page, so waited for
    await eventually(async () => (await editorText(viewer)) === V1, WAIT, 'the newest version in the editor');
    await viewer.getByRole('table', { name: 'Versions' }).waitFor();
    for (const name of [/^Save/, 'Preview on last requests', /^Restore/, 'Remove…'])
      expect(await viewer.getByRole('button', { name }).count()).toBe(0);
    await viewer.context().close();
  });
});

describe('an activity row shows, with each attempt, the transformation versions that ran and their console', () => {
  const RENAME = `(request) => { console.log('renamed', request.body.id); return { ...request, body: { order_id: request.body.id } }; }`;
  // sees what the endpoint's returned
  const THROWS = `(request) => { throw new Error('no customer for ' + request.body.order_id); }`;
  let renamesId: string;
  let renamesUrl: string;
  let crmId: string;

  beforeAll(async () => {
    const ep = await must(stack.client.POST('/v1/endpoints', { body: { name: 'renames' } }));
    [renamesId, renamesUrl] = [ep.id, ep.ingest_url];
    const crm = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId: renamesId } },
        body: { kind: 'webhook', name: 'crm', config: { url: receiver.url('/crm'), enforce_https: false } },
      }),
    );
    crmId = crm.id;
  });

  /** Sends `{ id }` to the endpoint; its event id. */
  async function sendId(id: string): Promise<string> {
    const res = await fetch(renamesUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });
    expect(res.status).toBe(202);
    return res.headers.get('x-relay-event-id')!;
  }

  /** Types code into the scope's editor (a fresh scope: nothing runs yet) and saves it as version 1. */
  async function saveFirstVersion(tab: string, code: string): Promise<void> {
    await page.goto(`${stack.dashboardUrl}#/endpoints/${renamesId}/${tab}`);
    // the scope's own state loaded, not the page's previous one
    await status().filter({ hasText: 'No transformation: requests are delivered as received.' }).waitFor({
      timeout: WAIT,
    });
    await typeCode(code);
    await page.getByRole('button', { name: 'Save as version 1' }).click();
    await saidOk('Saved as version 1');
  }

  /** The event's first attempt, once the activity log has recorded it. */
  const recordedAttempt = (eventId: string) =>
    eventually(
      async () =>
        (await stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } })).data?.deliveries[0]
          ?.attempts[0],
      WAIT,
      `${eventId}'s attempt recorded`,
    );

  /** Opens the event's row on the endpoint's Activity tab, as a person does; its first attempt's transformations. */
  async function transformsOfRow(eventId: string): Promise<Locator> {
    await page.goto(`${stack.dashboardUrl}#/endpoints/${renamesId}/activity`);
    const row = page.locator(`tr[data-event-id="${eventId}"]`);
    await row.waitFor({ timeout: WAIT });
    await row.getByRole('button', { name: /^Show details of the request/ }).click();
    const ran = page.locator(`tr[id="detail-${eventId}"] details.attempt-transform[data-attempt="1"]`);
    await ran.waitFor({ timeout: WAIT });
    return ran;
  }

  it('shows version 1 saved in the editor as what ran on the attempt, with its console line as text', async () => {
    await saveFirstVersion('transformation', RENAME);
    // markup in a console line is the user's text, never the page's
    const eventId = await sendId('<b>ord-1</b>');
    expect(bodyOf(await delivered(eventId))).toEqual({ order_id: '<b>ord-1</b>' });
    expect((await recordedAttempt(eventId)).transform).toEqual({
      versions: [{ scope: 'endpoint', version: 1 }],
      logs: ['[endpoint v1] renamed <b>ord-1</b>'],
    });

    const ran = await transformsOfRow(eventId);
    expect(await ran.locator('summary').textContent()).toBe('Attempt 1: transformation endpoint v1 · 1 console line');
    const lines = ran.locator('pre[aria-label="Console"]');
    expect(await lines.isVisible()).toBe(true);
    expect(await lines.textContent()).toBe('[endpoint v1] renamed <b>ord-1</b>');
    expect(await lines.locator('b').count()).toBe(0);
    expect(await ran.locator('.error-text').count()).toBe(0);
  });

  it('shows a target’s transformation that throws failing at its line, after the endpoint’s ran and logged', async () => {
    await saveFirstVersion(`transformation/${crmId}`, THROWS);
    const eventId = await sendId('ord-2');
    expect((await recordedAttempt(eventId)).state).toBe('transform_failed');

    const ran = await transformsOfRow(eventId);
    expect(await ran.locator('summary').textContent()).toBe(
      'Attempt 1: transformations endpoint v1, target v1 · 1 console line',
    );
    expect(await ran.locator('.error-text').textContent()).toBe(
      'Failed at line 1 of target v1: Error: no customer for ord-2',
    );
    expect(await ran.locator('pre[aria-label="Console"]').textContent()).toBe('[endpoint v1] renamed ord-2');
    await screenshot(page, 'activity-transform-failed');
    // kept, not sent
    expect(deliveriesOf(eventId)).toEqual([]);
  });
});
