import { mkdtempSync, writeFileSync } from 'node:fs';
import { must } from '@relay/client';
import type { AlertRuleInput, EndpointCreate, TargetCreate } from '@relay/client';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DISCORD_ID, DISCORD_TOKEN, DISCORD_URL } from '../integration/chat-targets/fixtures';
import { startFakeDiscord } from '../support/fake-discord';
import type { FakeDiscord } from '../support/fake-discord';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * Item 4 — alerts to the account, seen from outside: every service its own process on
 * the real RabbitMQ, Redis and FerretDB; the alert goes through the normal delivery path to a
 * webhook receiver and to the local HTTPS Discord fake (through the chat deliverer's HOST_ROUTES),
 * once per episode. Conditions: a target answering 500 (failure rate; its breaker opening and
 * closing), a target whose transformation fails (failure rate), a flagged target (410),
 * an AUTH_FAILED spike on an endpoint, the monthly quota nearly used; and a test alert.
 */

const DASHBOARD = 'https://relay.example/dash/';
let stack: Stack;
let failing: TestReceiver;
let gone: TestReceiver;
let alertHook: TestReceiver;
let discord: FakeDiscord;
let chat: RunningService;
let alertTargets: string[];
let alertEndpoint: string;

beforeAll(async () => {
  failing = await TestReceiver.start();
  failing.respondWith(() => ({ status: 500, body: 'down' }));
  gone = await TestReceiver.start();
  gone.respondWith(() => ({ status: 410, body: 'gone' }));
  alertHook = await TestReceiver.start();
  discord = await startFakeDiscord({ https: true, webhooks: [{ id: DISCORD_ID, token: DISCORD_TOKEN }] });
  // private: it reads the management API's process-wide alert counters; alerts every second
  stack = await startStack('alerts', {
    overrides: {
      'management-api': { ALERT_DETECT_INTERVAL_MS: '1000', DASHBOARD_URL: DASHBOARD },
      'activity-writer': { BATCH_MAX_WAIT_MS: '100', ACTIVITY_HOLD_MS: '500' },
    },
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'relay-alerts-'));
  writeFileSync(path.join(dir, 'discord-ca.pem'), discord.tls!.ca);
  chat = await startService('chat-deliverer', {
    ...stack.env,
    SSRF_ALLOW_CIDRS: '127.0.0.1/32',
    HOST_ROUTES: discord.tls!.routes.join(','),
    NODE_EXTRA_CA_CERTS: path.join(dir, 'discord-ca.pem'),
  });

  // where the account is told: an endpoint of its own with a webhook and a Discord target
  alertEndpoint = (await newEndpoint({ name: 'ops alerts' })).id;
  alertTargets = [
    (
      await newTarget(alertEndpoint, {
        kind: 'webhook',
        name: 'ops hook',
        config: { url: alertHook.url(), enforce_https: false },
      })
    ).id,
    (await newTarget(alertEndpoint, { kind: 'embed_chat', name: 'ops discord', config: { url: DISCORD_URL } })).id,
  ];
});

afterAll(async () => {
  await chat?.stop();
  await stack?.stop();
  await Promise.all([failing?.close(), gone?.close(), alertHook?.close(), discord?.close()]);
});

const newEndpoint = (body: EndpointCreate) => must(stack.client.POST('/v1/endpoints', { body }));
const newTarget = (endpointId: string, body: TargetCreate) =>
  must(stack.client.POST('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } }, body }));
const newRule = (body: AlertRuleInput) => must(stack.client.POST('/v1/alert-rules', { body }));

const send = (endpointId: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{"n":1}',
  });

/** Alerts the webhook receiver got, as parsed bodies. */
const hookAlerts = (kind?: string): any[] =>
  alertHook.requests
    .map((r) => JSON.parse(r.body.toString('utf8')))
    .filter((b) => b.alert && (!kind || b.alert.kind === kind));
const discordAlerts = (text: string): number =>
  discord.messages.filter((m) => String(m.body.content).includes(text)).length;

describe('alert rules, end to end', () => {
  let failingEndpoint: string;
  let failingTarget: string;

  it('a target that answers 500: a failure_rate alert reaches the webhook receiver and the Discord fake, with a link to the target view', async () => {
    failingEndpoint = (await newEndpoint({ name: 'orders' })).id;
    failingTarget = (
      await newTarget(failingEndpoint, {
        kind: 'webhook',
        name: 'orders backend',
        config: { url: failing.url(), enforce_https: false },
      })
    ).id;
    const rule = await newRule({
      name: 'orders backend failing',
      target_ids: alertTargets,
      conditions: [
        { kind: 'failure_rate', target_id: failingTarget, threshold_percent: 50, window_minutes: 5, min_attempts: 5 },
      ],
    });
    expect(rule.conditions[0]).toEqual({
      kind: 'failure_rate',
      target_id: failingTarget,
      threshold_percent: 50,
      window_minutes: 5,
      min_attempts: 5,
    });
    expect(rule.cooldown_minutes).toBe(60);

    for (let i = 0; i < 6; i++) expect((await send(failingEndpoint)).status).toBe(202);
    await eventually(
      async () => hookAlerts('failure_rate').length >= 1,
      30_000,
      'the failure_rate alert at the webhook receiver',
    );
    const [alert] = hookAlerts('failure_rate');
    expect(alert.alert).toMatchObject({
      rule_id: rule.id,
      rule_name: 'orders backend failing',
      kind: 'failure_rate',
      test: false,
      target_id: failingTarget,
    });
    expect(alert.alert.link).toBe(`https://relay.example/dash/#/endpoints/${failingEndpoint}/outputs`);
    expect(alert.alert.detail.failure_percent).toBe(100);
    expect(alert.content).toContain('“orders backend”');
    await eventually(
      async () => discordAlerts('orders backend failing') >= 1,
      30_000,
      'the failure_rate alert at the Discord fake',
    );
  });

  it("records the alert's own deliveries: the history names each target's activity row, where the attempt shows as delivered", async () => {
    const history = await eventually(
      async () => (await must(stack.client.GET('/v1/alerts'))).data.find((a) => a.kind === 'failure_rate'),
      10_000,
      'the alert history',
    );
    expect(history.deliveries.map((d) => d.target_id).sort()).toEqual([...alertTargets].sort());
    for (const d of history.deliveries) {
      expect(d).toMatchObject({ endpoint_id: alertEndpoint, error: null });
      const row = await eventually(
        async () => {
          const res = await stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId: d.event_id! } } });
          return res.data?.deliveries[0]?.state === 'delivered' ? res.data : undefined;
        },
        30_000,
        `the alert's activity row for ${d.target_id}`,
      );
      // marked as the alert it delivers, by names as well as ids
      expect(row.alert).toEqual({
        alert_id: history.id,
        rule_id: history.rule_id,
        rule_name: history.rule_name,
        kind: 'failure_rate',
        title: expect.any(String),
      });
      expect(row.reason).toContain(`“${history.rule_name}”`);
    }
  });

  it('a target flagged (410): a target_flagged alert, published by the deliverer as an account event', async () => {
    await newRule({
      name: 'any target flagged',
      target_ids: [alertTargets[0]],
      conditions: [{ kind: 'target_flagged' }],
    });
    const endpoint = (await newEndpoint({ name: 'legacy' })).id;
    const target = (
      await newTarget(endpoint, {
        kind: 'webhook',
        name: 'legacy receiver',
        config: { url: gone.url(), enforce_https: false },
      })
    ).id;
    expect((await send(endpoint)).status).toBe(202);
    await eventually(async () => hookAlerts('target_flagged').length >= 1, 30_000, 'the target_flagged alert');
    const [alert] = hookAlerts('target_flagged');
    expect(alert.alert).toMatchObject({ kind: 'target_flagged', target_id: target, endpoint_id: endpoint });
    expect(alert.alert.link).toBe(`https://relay.example/dash/#/endpoints/${endpoint}/outputs`);
  });

  it('a breaker that opens and closes again: breaker_opened and breaker_closed alerts, published by the deliverer that made the transition', async () => {
    const flaky = await TestReceiver.start();
    try {
      flaky.respondWith(() => ({ status: 500, body: 'down' }));
      const endpoint = (await newEndpoint({ name: 'billing' })).id;
      const target = (
        await newTarget(endpoint, {
          kind: 'webhook',
          name: 'billing backend',
          config: { url: flaky.url(), enforce_https: false },
          breaker: { failure_rate_pct: 50, min_attempts: 3, window_s: 30, cool_down_s: 1 },
        })
      ).id;
      await newRule({
        name: 'billing breaker',
        target_ids: alertTargets,
        conditions: [
          { kind: 'breaker_opened', target_id: target },
          { kind: 'breaker_closed', target_id: target },
        ],
      });
      for (let i = 0; i < 4; i++) expect((await send(endpoint)).status).toBe(202);
      await eventually(async () => hookAlerts('breaker_opened').length >= 1, 30_000, 'the breaker_opened alert');
      expect(hookAlerts('breaker_opened')[0].alert).toMatchObject({
        rule_name: 'billing breaker',
        target_id: target,
        endpoint_id: endpoint,
        link: `https://relay.example/dash/#/endpoints/${endpoint}/outputs`,
      });
      await eventually(
        async () => discordAlerts('billing breaker') >= 1,
        30_000,
        'the breaker_opened alert at the Discord fake',
      );
      // the receiver recovers: the probe after the cool-down succeeds and closes the breaker
      flaky.respondWith(() => ({ status: 200, body: 'ok' }));
      await eventually(async () => hookAlerts('breaker_closed').length >= 1, 90_000, 'the breaker_closed alert');
      expect(hookAlerts('breaker_opened')).toHaveLength(1);
    } finally {
      await flaky.close();
    }
  });

  it('a rejection spike: AUTH_FAILED over the threshold alerts once, linking to the endpoint’s errors in the activity view', async () => {
    const endpoint = (
      await newEndpoint({ name: 'github', inbound_auth: { type: 'BEARER', tokens: ['sender-token-0123456789'] } })
    ).id;
    await newRule({
      name: 'github secret rotated?',
      target_ids: alertTargets,
      conditions: [
        {
          kind: 'rejection_spike',
          endpoint_id: endpoint,
          outcome: 'AUTH_FAILED',
          threshold_percent: 80,
          min_requests: 5,
        },
      ],
    });
    for (let i = 0; i < 8; i++)
      expect((await send(endpoint, { authorization: 'Bearer rotated-0000000000000' })).status).toBe(401);
    await eventually(async () => hookAlerts('rejection_spike').length >= 1, 30_000, 'the rejection_spike alert');
    const [alert] = hookAlerts('rejection_spike');
    expect(alert.alert).toMatchObject({
      kind: 'rejection_spike',
      endpoint_id: endpoint,
      detail: { outcome: 'AUTH_FAILED', requests: 8, rejected: 8 },
    });
    expect(alert.alert.link).toMatch(
      new RegExp(
        `^https://relay\\.example/dash/#/activity\\?endpoint_id=${endpoint}&from=\\d{4}-\\d\\d-\\d\\dT\\d\\d%3A\\d\\d&to=.+&status=errors$`,
      ),
    );
    expect(alert.content).toContain('rotated its secret');
    await eventually(
      async () => discordAlerts('github secret rotated?') >= 1,
      30_000,
      'the rejection_spike alert at the Discord fake',
    );
  });

  it('once per episode: the failure rate still holds and more deliveries failed, yet no second failure_rate alert was sent', async () => {
    for (let i = 0; i < 6; i++) expect((await send(failingEndpoint)).status).toBe(202);
    // a detector pass that began after these failures were counted: a new rule's alert arrives
    // only through such a pass, and the same pass checks the failure rate again
    await newRule({
      name: 'orders backend failing (second rule)',
      target_ids: [alertTargets[0]],
      conditions: [
        { kind: 'failure_rate', target_id: failingTarget, threshold_percent: 50, window_minutes: 5, min_attempts: 5 },
      ],
    });
    await eventually(
      async () => hookAlerts('failure_rate').some((a) => a.alert.rule_name === 'orders backend failing (second rule)'),
      30_000,
      'the second rule’s alert',
    );
    const first = hookAlerts('failure_rate').filter((a) => a.alert.rule_name === 'orders backend failing');
    expect(first).toHaveLength(1);
    // the condition was seen again and folded into the open episode, as the management API counts it
    const metrics = await (await fetch(`${stack.services['management-api']!.healthUrl}/metrics`)).text();
    const folded = /^relay_alerts_total\{kind="failure_rate",result="deduplicated"\} (\d+)$/m.exec(metrics);
    expect(Number(folded?.[1] ?? 0)).toBeGreaterThan(0);
    expect(discordAlerts('orders backend failing:')).toBe(1);
  });

  it('a target whose deliveries end TRANSFORM_FAILED: its failure_rate alert fires, though its receiver answers 200', async () => {
    const healthy = await TestReceiver.start();
    try {
      const endpoint = (await newEndpoint({ name: 'invoices' })).id;
      const target = (
        await newTarget(endpoint, {
          kind: 'webhook',
          name: 'invoices backend',
          config: { url: healthy.url(), enforce_https: false },
        })
      ).id;
      await must(
        stack.client.PUT('/v1/endpoints/{endpointId}/targets/{targetId}/transformation', {
          params: { path: { endpointId: endpoint, targetId: target } },
          body: { code: `(r) => ({ ...r, body: { total: r.body.invoice.total } })` },
        }),
      );
      const rule = await newRule({
        name: 'invoices transformation failing',
        target_ids: [alertTargets[0]],
        conditions: [
          { kind: 'failure_rate', target_id: target, threshold_percent: 50, window_minutes: 5, min_attempts: 5 },
        ],
      });
      const sent: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await send(endpoint);
        expect(res.status).toBe(202);
        sent.push(res.headers.get('x-relay-event-id')!);
      }
      await eventually(
        async () => hookAlerts('failure_rate').some((a) => a.alert.rule_id === rule.id),
        30_000,
        'the failure_rate alert of the transformation’s target',
      );
      const alert = hookAlerts('failure_rate').find((a) => a.alert.rule_id === rule.id);
      expect(alert.alert).toMatchObject({ target_id: target, detail: { failure_percent: 100 } });
      const attempt = await eventually(
        async () =>
          (await stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId: sent[0]! } } })).data
            ?.deliveries[0]?.attempts[0],
        30_000,
        'the attempt recorded',
      );
      expect(attempt).toMatchObject({
        state: 'transform_failed',
        error: expect.stringMatching(/^TRANSFORM_FAILED: target transformation v1, line 1: TypeError/),
      });
      expect(healthy.requests).toEqual([]);
    } finally {
      await healthy.close();
    }
  });

  it('the monthly quota nearly used: one alert at the threshold, linking to usage', async () => {
    await must(stack.client.PATCH('/v1/account/plan', { body: { monthly_accepted_events: 20 } }));
    await newRule({
      name: 'quota',
      target_ids: [alertTargets[0]],
      conditions: [{ kind: 'quota_nearly_used', threshold_percent: 50 }],
    });
    await eventually(async () => hookAlerts('quota_nearly_used').length >= 1, 30_000, 'the quota alert');
    const [alert] = hookAlerts('quota_nearly_used');
    expect(alert.alert.link).toBe('https://relay.example/dash/#/usage');
    expect(alert.alert.detail.limit).toBe(20);
    expect(alert.alert.detail.used).toBeGreaterThanOrEqual(10);
  });

  it('a test alert goes to every target of the rule, marked as a test, and is in the history', async () => {
    const rules = await must(stack.client.GET('/v1/alert-rules'));
    const rule = rules.data.find((r) => r.name === 'github secret rotated?')!;
    const before = discordAlerts('[Relay test alert]');
    const res = await stack.client.POST('/v1/alert-rules/{ruleId}/test', { params: { path: { ruleId: rule.id } } });
    expect(res.response.status).toBe(202);
    const sent = res.data!;
    expect(sent).toMatchObject({ rule_id: rule.id, test: true, kind: 'rejection_spike' });
    await eventually(
      async () => hookAlerts().some((a) => a.alert.id === sent.id && a.alert.test === true),
      30_000,
      'the test alert at the webhook receiver',
    );
    await eventually(
      async () => discordAlerts('[Relay test alert]') > before,
      30_000,
      'the test alert at the Discord fake',
    );
    const history = await must(stack.client.GET('/v1/alerts'));
    expect(history.data[0]).toMatchObject({ id: sent.id, test: true });
  });
});
