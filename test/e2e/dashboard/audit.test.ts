import { must } from '@relay/client';
import type { Page } from 'playwright-core';
import { eventually } from '../../support/infra';
import { launchBrowser, screenshot } from './browser';
import type { Browser } from './browser';
import { startDashboardStack } from './stack';

/**
 * In Chromium against the real stack: a person signed in with a named key
 * changes a setting and adds a target; the endpoint's Audit history tab then shows both — which
 * fields, which target, by that key's name and prefix, from where — and never the target's token.
 */
let stack: Awaited<ReturnType<typeof startDashboardStack>>;
let browser: Browser;
let page: Page;
let endpointId: string;
let key: { secret: string; prefix: string };

const WAIT = 30_000;
const shoot = (name: string): Promise<void> => screenshot(page, name);
const TOKEN = 'tok-audit-secret-77';

beforeAll(async () => {
  stack = await startDashboardStack('dashboard-audit');
  const created = await must(stack.client.POST('/v1/api-keys', { body: { role: 'editor', name: 'Dana (support)' } }));
  key = { secret: created.secret, prefix: created.prefix };
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'shop' } }))).id;
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(stack.dashboardUrl);
  await page.getByLabel('API key', { exact: true }).fill(key.secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the audit history shows settings and target changes with who and which fields', () => {
  it('a saved rate limit and an added target are both in the endpoint’s Audit history', async () => {
    await page.goto(`${stack.dashboardUrl}#/endpoints/${endpointId}`);
    await page.getByLabel('Rate limit (requests per minute)', { exact: true }).fill('120');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor({ timeout: WAIT });

    await page.getByRole('link', { name: 'Outputs' }).click();
    await page.getByRole('button', { name: 'Add target' }).click();
    const form = page.locator('form.target-form');
    await form.getByLabel('Kind', { exact: true }).selectOption({ label: 'Webhook URL' });
    await form.getByLabel('Target name', { exact: true }).fill('crm');
    await form.getByLabel('Target URL', { exact: true }).fill('https://hooks.example.com/crm');
    await form.getByLabel('Outbound authentication', { exact: true }).selectOption('bearer');
    await form.getByLabel('Token', { exact: true }).fill(TOKEN);
    await form.getByRole('button', { name: 'Add target' }).click();
    await page
      .locator('.card.target', { has: page.getByRole('heading', { level: 3, name: 'crm', exact: true }) })
      .waitFor({ timeout: WAIT });

    await page.getByRole('link', { name: 'Audit history' }).click();
    const table = page.locator('section[aria-labelledby="audit-title"] table');
    await table.waitFor({ timeout: WAIT });
    const rows: string[][] = [];
    for (const tr of await table.locator('tbody tr').all())
      rows.push((await tr.locator('td').allTextContents()).map((t) => t.trim()));
    // newest first: the target, then the setting, then the endpoint's creation (by the owner key)
    // the What cell carries "by …" too, shown only on a phone where the By column is hidden
    const from = /^(127\.0\.0\.1|::1)$/;
    const phoneWhat = (what: string) =>
      new RegExp(`^${what}by Dana \\(support\\) ${key.prefix} from (127\\.0\\.0\\.1|::1)$`);
    expect(rows[0]).toEqual([
      expect.any(String),
      'Target added',
      expect.stringMatching(phoneWhat('“crm”')),
      `Dana (support) ${key.prefix}`,
      expect.stringMatching(from),
    ]);
    expect(rows[1]).toEqual([
      expect.any(String),
      'Settings changed',
      expect.stringMatching(phoneWhat('rate_limit_per_minute')),
      `Dana (support) ${key.prefix}`,
      expect.stringMatching(from),
    ]);
    expect(rows[2]?.[1]).toBe('Endpoint created');
    expect(await page.locator('main').textContent()).not.toContain(TOKEN);

    // the API says the same: per endpoint through the account history too, no secret in any row
    const history = await must(stack.client.GET('/v1/audit', { params: { query: { endpoint_id: endpointId } } }));
    expect(history.data.map((r) => r.action)).toEqual(['target_created', 'endpoint_updated', 'endpoint_created']);
    expect(JSON.stringify(history)).not.toContain(TOKEN);
    await shoot('audit-changes');

    // on a phone the change and who made it are in one visible cell (By and From are for wide screens)
    await page.setViewportSize({ width: 390, height: 844 });
    const phoneWho = table.locator('tbody tr').first().locator('td.audit-what .narrow-only');
    expect(await phoneWho.isVisible()).toBe(true);
    expect(await phoneWho.textContent()).toMatch(
      new RegExp(`^by Dana \\(support\\) ${key.prefix} from (127\\.0\\.0\\.1|::1)$`),
    );
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('a target saved with only its limits changed is audited as exactly that: “crm”: limits', async () => {
    await page.getByRole('link', { name: 'Outputs' }).click();
    const card = page.locator('.card.target', {
      has: page.getByRole('heading', { level: 3, name: 'crm', exact: true }),
    });
    await card.getByRole('button', { name: 'Edit…' }).click();
    const form = page.locator('form.target-form');
    await form.getByLabel('Rate', { exact: true }).fill('5');
    await form.getByLabel('Per', { exact: true }).selectOption('minute');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Target crm saved.').waitFor({ timeout: WAIT });
    await page.getByRole('link', { name: 'Audit history' }).click();
    const first = page.locator('section[aria-labelledby="audit-title"] table tbody tr').first();
    await first.getByText('Target changed', { exact: true }).waitFor({ timeout: WAIT });
    // the form sent name, retry schedule, routing and breaker back unchanged: none of them is named
    expect((await first.locator('td.audit-what').textContent())?.trim()).toMatch(/^“crm”: limitsby /);
  });

  it('an editor typing the account history’s address gets “Not allowed” and nothing to use', async () => {
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit history' }).count(),
    ).toBe(0);
    await page.goto(`${stack.dashboardUrl}#/audit`);
    await page
      .getByText(/^Not allowed: an editor key cannot see Audit history\. It needs an admin key or higher\.$/)
      .waitFor({ timeout: WAIT });
    expect(await page.locator('main').locator('table, form, select, input').count()).toBe(0);
  });
});

describe('the account’s audit history page (admin and owner)', () => {
  let owner: Page;
  beforeAll(async () => {
    await must(stack.client.PATCH('/v1/account/plan', { body: { payload_limit_bytes: 131072 } }));
    await must(stack.client.POST('/v1/endpoints', { body: { name: 'billing' } }));
    owner = await (await browser.newContext()).newPage();
    await owner.goto(stack.dashboardUrl);
    await owner.getByLabel('API key', { exact: true }).fill(stack.apiKey);
    await owner.getByRole('button', { name: 'Sign in' }).click();
    await owner.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
  });
  afterAll(async () => {
    await owner?.context().close();
  });

  const cells = async (p: Page): Promise<string[][]> => {
    const out: string[][] = [];
    for (const tr of await p.locator('table.audit-table tbody tr').all())
      out.push((await tr.locator('td').allTextContents()).map((t) => t.trim()));
    return out;
  };

  it('lists every change of the account — keys, the plan, endpoints, targets — with which endpoint, who and from where', async () => {
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit history' }).click();
    await owner.getByRole('heading', { level: 1, name: 'Audit history' }).waitFor();
    await owner.locator('table.audit-table').waitFor({ timeout: WAIT });
    const rows = await cells(owner);
    const actions = rows.map((r) => r[1]);
    // newest first: billing, the plan, then the editor's target and setting, the endpoint, Dana's key
    expect(actions.slice(0, 2)).toEqual(['Endpoint created', 'Plan changed']);
    expect(actions).toEqual(expect.arrayContaining(['Target added', 'Settings changed', 'API key created']));
    const plan = rows.find((r) => r[1] === 'Plan changed')!;
    expect(plan[2]).toBe('account');
    expect(plan[3]).toMatch(/^payload_limit_bytes: \d+ → 131072/);
    const keyRow = rows.find((r) => r[1] === 'API key created')!;
    expect(keyRow[3]).toContain(`editor key ${key.prefix}… “Dana (support)”`);
    const target = rows.find((r) => r[1] === 'Target added')!;
    expect(target[2]).toBe('shop');
    expect(target[4]).toBe(`Dana (support) ${key.prefix}`);
    expect(await owner.locator('main').textContent()).not.toContain(TOKEN);
  });

  it('filters to one endpoint from its address, so the filtered view can be shared and gone back from', async () => {
    await owner.getByLabel('Endpoint', { exact: true }).selectOption({ label: 'shop' });
    await owner.waitForURL(new RegExp(`#/audit\\?endpoint_id=${endpointId}$`));
    await eventually(
      async () => {
        const rows = await cells(owner);
        return rows.length === 4 && rows.every((r) => r[2] === 'shop');
      },
      WAIT,
      'only shop’s four rows',
    );
    expect((await cells(owner)).map((r) => r[1])).toEqual([
      'Target changed',
      'Target added',
      'Settings changed',
      'Endpoint created',
    ]);
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.waitForTimeout(300);
    expect(await owner.evaluate('document.documentElement.scrollWidth > window.innerWidth + 1')).toBe(false);
    await owner.setViewportSize({ width: 1366, height: 900 });
    await owner.goBack();
    await eventually(
      async () => (await cells(owner)).some((r) => r[1] === 'Plan changed'),
      WAIT,
      'the whole history again',
    );
    await screenshot(owner, 'audit-account');
  });

  it('names alert rule changes and test alerts in words, with the rule’s name under What', async () => {
    const targets = await must(
      stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }),
    );
    const rule = await must(
      stack.client.POST('/v1/alert-rules', {
        body: { name: 'Ops pager', target_ids: [targets.data[0]!.id], conditions: [{ kind: 'target_flagged' }] },
      }),
    );
    await must(stack.client.POST('/v1/alert-rules/{ruleId}/test', { params: { path: { ruleId: rule.id } } }));
    await owner.goto(`${stack.dashboardUrl}#/audit`);
    await owner.reload();
    await owner.getByText('Test alert sent', { exact: true }).waitFor({ timeout: WAIT });
    const [sent, created] = await cells(owner);
    expect(sent!.slice(1, 3)).toEqual(['Test alert sent', 'account']);
    expect(sent![3]).toMatch(/^Alert rule “Ops pager”: a test alertby /);
    expect(created!.slice(1, 3)).toEqual(['Alert rule created', 'account']);
    expect(created![3]).toMatch(/^Alert rule “Ops pager”: A target was flaggedby /);
    expect(await owner.locator('main').textContent()).not.toMatch(/alert_test_sent|alert_rule_created/);
  });
});
