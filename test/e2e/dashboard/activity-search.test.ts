import { must } from '@relay/client';
import type { ActivityPage } from '@relay/client';
import type { Page } from 'playwright-core';
import { eventually } from '../../support/infra';
import { TestReceiver } from '../../support/receiver';
import { launchBrowser } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/*
 * Item 2 in Chromium against the real stack: each filter of Request activity used the
 * way a person would — typed into its field and applied — finds what the rows show; a filter
 * that cannot match says why at its field; the filters are in the address (a second tab opened
 * on it shows the same view, Back returns to the view before); a payload search past its 100
 * rows a call offers "Search older".
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let receiver: TestReceiver;
let browser: Browser;
let page: Page;
let endpointId: string;
/** accepted requests sent after the one with "bob": more than one search call's 100 rows */
const NEWER = 110;

const ingest = (contentType: string, body: string, extra: { query?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}${extra.query ?? ''}`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...extra.headers },
    body,
  });

/** The account's rows, following next_cursor (a call reads at most 40 index pages). */
async function allRows(): Promise<ActivityPage['data']> {
  const rows: ActivityPage['data'] = [];
  let cursor: string | null = null;
  for (let calls = 0; calls < 20; calls++) {
    const page: ActivityPage = await must(
      stack.client.GET('/v1/activity', { params: { query: { limit: 200, ...(cursor ? { cursor } : {}) } } }),
    );
    rows.push(...page.data);
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  return rows;
}

beforeAll(async () => {
  receiver = await TestReceiver.start();
  // carol's order is refused by the receiver for good (a 4xx): a row with a 400 attempt
  receiver.respondWith((req) =>
    req.body.toString().includes('carol') ? { status: 400, body: 'no thanks' } : { status: 200 },
  );
  stack = await startDashboardStack('dash-search');
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'shop' } }))).id;
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind: 'webhook', name: 'receiver', config: { url: receiver.url(), enforce_https: false } },
    }),
  );
  expect(
    (
      await ingest('application/json', '{"customer":"bob","total":12}', {
        query: '?source=shop',
        headers: { 'x-shop-token': 'tok_live_123', 'x-shop': 'north' },
      })
    ).status,
  ).toBe(202);
  expect((await ingest('application/json', '{"customer":"carol","total":7}')).status).toBe(202);
  expect((await ingest('text/plain', 'hello')).status).toBe(415);
  // ten at a time: the writer's index pages (one per flush) hold several rows each, as under
  // real traffic, so one list call (at most 40 page reads) covers them on a loaded machine too
  for (let i = 0; i < NEWER; i += 10)
    await Promise.all(
      Array.from({ length: Math.min(10, NEWER - i) }, async (_, k) =>
        expect((await ingest('application/json', `{"customer":"anon${i + k}"}`)).status).toBe(202),
      ),
    );
  await receiver.waitForRequests(NEWER + 2, 60_000);
  // every row listed by the account's pages before the browser looks, every cursor followed
  await eventually(
    async () => {
      const rows = await allRows();
      const pending = rows.filter((r) => r.status === 'pending');
      if (rows.length >= NEWER + 3 && pending.length === 0) return true;
      throw new Error(`${rows.length} of ${NEWER + 3} rows listed, ${pending.length} pending`);
    },
    60_000,
    'every row written and settled',
  );

  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(stack.dashboardUrl);
  await page.getByLabel('API key', { exact: true }).fill(stack.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Request activity' }).click();
  await page.getByRole('heading', { level: 1, name: 'Request activity' }).waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver?.close();
});

const filters = () => page.getByRole('form', { name: 'Activity filters' });
const rowsShown = () => page.locator('table.activity-table tbody tr[data-event-id]');
const FIELDS = ['Source IP', 'Error text', 'Payload contains', 'Response status', 'From (UTC)', 'To (UTC)'] as const;
/** Types `values` into their fields, empties the others and applies them, as a person would. */
async function search(values: Partial<Record<(typeof FIELDS)[number], string>>): Promise<void> {
  // on a phone the fields are folded under one button, opened as a person would
  const folded = filters().getByRole('button', { name: /^Filters/ });
  if (await folded.isVisible()) await folded.click();
  for (const label of FIELDS)
    await filters()
      .getByLabel(label, { exact: true })
      .fill(values[label] ?? '');
  await filters().getByRole('button', { name: 'Apply filters' }).click();
}
/** Waits for the list to settle on `n` rows (or an empty result). */
async function expectRows(n: number): Promise<void> {
  if (n === 0) await page.getByText(/^No requests match these filters/).waitFor();
  else await eventually(async () => (await rowsShown().count()) === n, 20_000, `${n} rows shown`);
}

/**
 * Clicks "Search older" (each click one more call of at most 100 rows) until `n` rows are shown,
 * at most `calls` times.
 */
async function searchOlderUntil(n: number, calls = 4): Promise<void> {
  for (let i = 0; i < calls && (await rowsShown().count()) < n; i++) {
    await Promise.all([
      page.waitForResponse((r) => r.url().includes('/v1/activity?') && r.url().includes('cursor=')),
      page.getByRole('button', { name: 'Search older' }).click(),
    ]);
    await page.waitForTimeout(200); // the answer's render
  }
  await expectRows(n);
}

describe('Request activity in the first screen', () => {
  it.each([
    ['a laptop', 1366, 800],
    ['a phone', 390, 844],
  ])(
    'on %s (%i×%i) the first request rows show above the fold, the filters folded to one line',
    async (_n, w, h) => {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${stack.dashboardUrl}#/activity`);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Request activity' }).waitFor();
      await rowsShown().nth(19).waitFor({ timeout: 20_000 });
      // the latency chart drawn from the loaded rows' deliveries: the page at its tallest
      await page.locator('figure.chart svg').waitFor({ timeout: 90_000 });
      expect(await filters().getByLabel('Error text', { exact: true }).isVisible()).toBe(false);
      expect(await filters().getByRole('button', { name: 'Filters', exact: true }).isVisible()).toBe(true);
      await page.evaluate('window.scrollTo(0, 0)');
      const first = (await rowsShown().first().boundingBox())!;
      expect(first.y + first.height).toBeLessThanOrEqual(h);
      await page.setViewportSize({ width: 1366, height: 900 });
    },
    150_000,
  );
});

describe('Request activity search in Chromium', () => {
  it('From and To (UTC) show and take UTC text, the same in every locale, and ask the API for exactly that time', async () => {
    const from = filters().getByLabel('From (UTC)', { exact: true });
    const asked = page.waitForRequest((r) => r.url().includes('/v1/activity?') && r.url().includes('from='));
    await search({ 'From (UTC)': '2020-01-02 10:00' });
    expect(new URL((await asked).url()).searchParams.get('from')).toBe('2020-01-02T10:00:00.000Z');
    expect(await from.inputValue()).toBe('2020-01-02 10:00');
    expect(await from.getAttribute('placeholder')).toBe('YYYY-MM-DD HH:MM');
    await search({});
  });

  it('error text finds what the row shows: "Media Type" finds the Unsupported Media Type row', async () => {
    await search({ 'Error text': 'Media Type' });
    await expectRows(1);
    expect(await rowsShown().first().textContent()).toContain('Unsupported Media Type (UNSUPPORTED_MEDIA_TYPE)');
    expect(page.url()).toContain('error=Media+Type');
  });

  it('"delivery failed" finds the row whose delivery the receiver refused', async () => {
    await search({ 'Error text': 'delivery failed' });
    await expectRows(1);
    expect(await rowsShown().first().textContent()).toContain('Delivery failed (ACCEPTED)');
  });

  it('a source IP that is not an IP: the reason at its field, not an empty list', async () => {
    await search({ 'Source IP': 'not an ip' });
    await page.locator('[data-field-error="source_ip"]').waitFor();
    expect(await page.locator('[data-field-error="source_ip"]').textContent()).toContain(
      'must be an IPv4 or IPv6 address',
    );
    expect(await filters().getByLabel('Source IP', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await search({ 'Source IP': '127.0.0.1' });
    await expectRows(Math.min(50, NEWER + 3));
  });

  it('From after To: the reason at From', async () => {
    await search({ 'From (UTC)': '2030-01-02T10:00', 'To (UTC)': '2030-01-01T10:00' });
    await page.locator('[data-field-error="from"]').waitFor();
    expect(await page.locator('[data-field-error="from"]').textContent()).toContain('must be before To');
  });

  it('response status: 400 finds the refused delivery, older than the first 100 rows searched', async () => {
    await search({ 'Response status': '400' });
    await page.getByText('No requests match these filters among the rows searched so far.').waitFor();
    await searchOlderUntil(1);
    await page
      .getByRole('button', { name: /^Show details of the request/ })
      .first()
      .click();
    await page
      .getByText(/HTTP 400/)
      .first()
      .waitFor();
    await search({ 'Response status': 'teapot' });
    await page.locator('[data-field-error="response_status"]').waitFor();
  });

  it('payload content past one call\'s 100 rows: nothing among the newest, then "Search older" finds it', async () => {
    await search({ 'Payload contains': '"customer":"bob"' });
    await page.getByText('No requests match these filters among the rows searched so far.').waitFor();
    await searchOlderUntil(1);
    expect(await rowsShown().first().textContent()).toContain('Completed (ACCEPTED)');
  });

  it('the found row opens to its request — query, headers with the credential redacted, the payload pretty and raw — and its delivery by target name (item 1)', async () => {
    await page
      .getByRole('button', { name: /^Show details of the request/ })
      .first()
      .click();
    const request = page.getByRole('region', { name: 'Request', exact: true });
    await request.waitFor();
    expect(await request.getByText('POST ?source=shop').count()).toBe(1);
    expect(await request.getByRole('row', { name: /x-shop-token/ }).textContent()).toContain('[redacted]');
    expect(await request.getByRole('row', { name: /x-shop-token/ }).textContent()).not.toContain('tok_live_123');
    expect(await request.getByRole('row', { name: /^x-shop north/ }).count()).toBe(1);
    expect(await request.locator('pre.payload').textContent()).toBe('{\n  "customer": "bob",\n  "total": 12\n}');
    await request.getByRole('button', { name: 'Show raw' }).click();
    expect(await request.locator('pre.payload').textContent()).toBe('{"customer":"bob","total":12}');
    expect(await request.getByText(/Payload, 29 B of application\/json/).count()).toBe(1);
    expect(await request.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(
      `data:application/json;base64,${Buffer.from('{"customer":"bob","total":12}').toString('base64')}`,
    );
    await page.getByText(/to receiver \(webhook\): delivered/).waitFor();
  });

  it('at phone size (390×844) the same search finds the row, and its request opens', async () => {
    const laptop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    // a fresh page on a phone: no row left open by the tests above
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Request activity' }).waitFor();
    try {
      await search({ 'Error text': 'Media Type' });
      await expectRows(1);
      expect(await rowsShown().first().textContent()).toContain('Unsupported Media Type');
      await search({ 'Payload contains': '"total":7' });
      await searchOlderUntil(1);
      await page
        .getByRole('button', { name: /^Show details of the request/ })
        .first()
        .click();
      expect(
        await page.getByRole('region', { name: 'Request', exact: true }).locator('pre.payload').textContent(),
      ).toContain('"customer": "carol"');
    } finally {
      await page.setViewportSize(laptop);
    }
  });

  it('the filters are in the address: another tab opened on it shows the same view; Back returns to the view before', async () => {
    await search({ 'Error text': 'Media Type' });
    await expectRows(1);
    const shared = page.url();
    await search({ 'Error text': 'delivery failed', 'Source IP': '127.0.0.1' });
    await expectRows(1);
    expect(page.url()).toContain('source_ip=127.0.0.1');

    const other = await browser.context.newPage();
    await other.goto(shared);
    await other.getByRole('heading', { level: 1, name: 'Request activity' }).waitFor();
    expect(await other.getByLabel('Error text', { exact: true }).inputValue()).toBe('Media Type');
    await eventually(
      async () => (await other.locator('table.activity-table tbody tr[data-event-id]').count()) === 1,
      20_000,
      'the shared view',
    );
    expect(await other.locator('table.activity-table tbody tr[data-event-id]').first().textContent()).toContain(
      'Unsupported Media Type',
    );
    await other.close();

    await page.goBack();
    await eventually(
      async () => (await filters().getByLabel('Error text', { exact: true }).inputValue()) === 'Media Type',
      10_000,
      'Back to the error-text view',
    );
    expect(await filters().getByLabel('Source IP', { exact: true }).inputValue()).toBe('');
    await expectRows(1);
    expect(await rowsShown().first().textContent()).toContain('Unsupported Media Type');
  });
});
