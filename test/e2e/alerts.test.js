"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = __importDefault(require("node:path"));
const fixtures_1 = require("../integration/chat-targets/fixtures");
const fake_discord_1 = require("../support/fake-discord");
const infra_1 = require("../support/infra");
const receiver_1 = require("../support/receiver");
const services_1 = require("../support/services");
const stack_1 = require("./stack");
/*
 * Issue 25, item 4 — alerts to the account, seen from outside: every service its own process on
 * the real RabbitMQ, Redis and FerretDB; the alert goes through the normal delivery path to a
 * webhook receiver and to the local HTTPS Discord fake (through the chat deliverer's HOST_ROUTES),
 * once per episode. Conditions: a target answering 500 (failure rate; its breaker opening and
 * closing), a flagged target (410),
 * an AUTH_FAILED spike on an endpoint, the monthly quota nearly used; and a test alert.
 */
const DASHBOARD = 'https://relay.example/dash/';
let stack;
let failing;
let gone;
let alertHook;
let discord;
let chat;
let alertTargets;
let alertEndpoint;
beforeAll(async () => {
    failing = await receiver_1.TestReceiver.start();
    failing.respondWith(() => ({ status: 500, body: 'down' }));
    gone = await receiver_1.TestReceiver.start();
    gone.respondWith(() => ({ status: 410, body: 'gone' }));
    alertHook = await receiver_1.TestReceiver.start();
    discord = await (0, fake_discord_1.startFakeDiscord)({ https: true, webhooks: [{ id: fixtures_1.DISCORD_ID, token: fixtures_1.DISCORD_TOKEN }] });
    stack = await (0, stack_1.startStack)('alerts', {
        overrides: {
            'management-api': { ALERT_DETECT_INTERVAL_MS: '1000', DASHBOARD_URL: DASHBOARD },
            'activity-writer': { BATCH_MAX_WAIT_MS: '100', ACTIVITY_HOLD_MS: '500' },
        },
    });
    const dir = (0, node_fs_1.mkdtempSync)(node_path_1.default.join((0, node_os_1.tmpdir)(), 'relay-alerts-'));
    (0, node_fs_1.writeFileSync)(node_path_1.default.join(dir, 'discord-ca.pem'), discord.tls.ca);
    chat = await (0, services_1.startService)('chat-deliverer', { ...stack.env, SSRF_ALLOW_CIDRS: '127.0.0.1/32', HOST_ROUTES: discord.tls.routes.join(','), NODE_EXTRA_CA_CERTS: node_path_1.default.join(dir, 'discord-ca.pem') });
    // where the account is told: an endpoint of its own with a webhook and a Discord target
    alertEndpoint = (await created('/v1/endpoints', { name: 'ops alerts' })).id;
    alertTargets = [
        (await created(`/v1/endpoints/${alertEndpoint}/targets`, { kind: 'webhook', name: 'ops hook', config: { url: alertHook.url(), enforce_https: false } })).id,
        (await created(`/v1/endpoints/${alertEndpoint}/targets`, { kind: 'embed_chat', name: 'ops discord', config: { url: fixtures_1.DISCORD_URL } })).id,
    ];
});
afterAll(async () => {
    await chat?.stop();
    await stack?.stop();
    await Promise.all([failing?.close(), gone?.close(), alertHook?.close(), discord?.close()]);
});
async function created(pathname, body) {
    const res = await stack.api(pathname, { method: 'POST', body });
    if (res.status !== 201)
        throw new Error(`${pathname}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
}
const send = (endpointId, headers = {}) => fetch(`${stack.services['ingest-gateway'].url}/relay/${endpointId}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"n":1}' });
/** Alerts the webhook receiver got, as parsed bodies. */
const hookAlerts = (kind) => alertHook.requests.map((r) => JSON.parse(r.body.toString('utf8'))).filter((b) => b.alert && (!kind || b.alert.kind === kind));
const discordAlerts = (text) => discord.messages.filter((m) => String(m.body.content).includes(text)).length;
describe('alert rules, end to end', () => {
    let failingEndpoint;
    let failingTarget;
    it('a target that answers 500: a failure_rate alert reaches the webhook receiver and the Discord fake, with a link to the target view', async () => {
        failingEndpoint = (await created('/v1/endpoints', { name: 'orders' })).id;
        failingTarget = (await created(`/v1/endpoints/${failingEndpoint}/targets`, { kind: 'webhook', name: 'orders backend', config: { url: failing.url(), enforce_https: false } })).id;
        const rule = await created('/v1/alert-rules', { name: 'orders backend failing', target_ids: alertTargets, conditions: [{ kind: 'failure_rate', target_id: failingTarget, threshold_percent: 50, window_minutes: 5, min_attempts: 5 }] });
        expect(rule.conditions[0]).toEqual({ kind: 'failure_rate', target_id: failingTarget, threshold_percent: 50, window_minutes: 5, min_attempts: 5 });
        expect(rule.cooldown_minutes).toBe(60);
        for (let i = 0; i < 6; i++)
            expect((await send(failingEndpoint)).status).toBe(202);
        await (0, infra_1.eventually)(async () => hookAlerts('failure_rate').length >= 1, 30_000, 'the failure_rate alert at the webhook receiver');
        const [alert] = hookAlerts('failure_rate');
        expect(alert.alert).toMatchObject({ rule_id: rule.id, rule_name: 'orders backend failing', kind: 'failure_rate', test: false, target_id: failingTarget });
        expect(alert.alert.link).toBe(`https://relay.example/dash/#/endpoints/${failingEndpoint}/outputs`);
        expect(alert.alert.detail.failure_percent).toBe(100);
        expect(alert.content).toContain('“orders backend”');
        await (0, infra_1.eventually)(async () => discordAlerts('orders backend failing') >= 1, 30_000, 'the failure_rate alert at the Discord fake');
    });
    it("records the alert's own deliveries: the history names each target's activity row, where the attempt shows as delivered", async () => {
        const history = await (0, infra_1.eventually)(async () => {
            const res = await stack.api('/v1/alerts');
            return res.body.data.find((a) => a.kind === 'failure_rate');
        }, 10_000, 'the alert history');
        expect(history.deliveries.map((d) => d.target_id).sort()).toEqual([...alertTargets].sort());
        for (const d of history.deliveries) {
            expect(d).toMatchObject({ endpoint_id: alertEndpoint, error: null });
            const row = await (0, infra_1.eventually)(async () => {
                const res = await stack.api(`/v1/activity/${d.event_id}`);
                return res.status === 200 && res.body.deliveries?.[0]?.state === 'delivered' ? res.body : undefined;
            }, 30_000, `the alert's activity row for ${d.target_id}`);
            expect(row.reason).toContain(history.id);
        }
    });
    it('a target flagged (410): a target_flagged alert, published by the deliverer as an account event', async () => {
        await created('/v1/alert-rules', { name: 'any target flagged', target_ids: [alertTargets[0]], conditions: [{ kind: 'target_flagged' }] });
        const endpoint = (await created('/v1/endpoints', { name: 'legacy' })).id;
        const target = (await created(`/v1/endpoints/${endpoint}/targets`, { kind: 'webhook', name: 'legacy receiver', config: { url: gone.url(), enforce_https: false } })).id;
        expect((await send(endpoint)).status).toBe(202);
        await (0, infra_1.eventually)(async () => hookAlerts('target_flagged').length >= 1, 30_000, 'the target_flagged alert');
        const [alert] = hookAlerts('target_flagged');
        expect(alert.alert).toMatchObject({ kind: 'target_flagged', target_id: target, endpoint_id: endpoint });
        expect(alert.alert.link).toBe(`https://relay.example/dash/#/endpoints/${endpoint}/outputs`);
    });
    it('a breaker that opens and closes again: breaker_opened and breaker_closed alerts, published by the deliverer that made the transition', async () => {
        const flaky = await receiver_1.TestReceiver.start();
        try {
            flaky.respondWith(() => ({ status: 500, body: 'down' }));
            const endpoint = (await created('/v1/endpoints', { name: 'billing' })).id;
            const target = (await created(`/v1/endpoints/${endpoint}/targets`, { kind: 'webhook', name: 'billing backend', config: { url: flaky.url(), enforce_https: false }, breaker: { failure_rate_pct: 50, min_attempts: 3, window_s: 30, cool_down_s: 1 } })).id;
            await created('/v1/alert-rules', { name: 'billing breaker', target_ids: alertTargets, conditions: [{ kind: 'breaker_opened', target_id: target }, { kind: 'breaker_closed', target_id: target }] });
            for (let i = 0; i < 4; i++)
                expect((await send(endpoint)).status).toBe(202);
            await (0, infra_1.eventually)(async () => hookAlerts('breaker_opened').length >= 1, 30_000, 'the breaker_opened alert');
            expect(hookAlerts('breaker_opened')[0].alert).toMatchObject({ rule_name: 'billing breaker', target_id: target, endpoint_id: endpoint, link: `https://relay.example/dash/#/endpoints/${endpoint}/outputs` });
            await (0, infra_1.eventually)(async () => discordAlerts('billing breaker') >= 1, 30_000, 'the breaker_opened alert at the Discord fake');
            // the receiver recovers: the probe after the cool-down succeeds and closes the breaker
            flaky.respondWith(() => ({ status: 200, body: 'ok' }));
            await (0, infra_1.eventually)(async () => hookAlerts('breaker_closed').length >= 1, 90_000, 'the breaker_closed alert');
            expect(hookAlerts('breaker_opened')).toHaveLength(1);
        }
        finally {
            await flaky.close();
        }
    });
    it('a rejection spike: AUTH_FAILED over the threshold alerts once, linking to the endpoint’s errors in the activity view', async () => {
        const endpoint = (await created('/v1/endpoints', { name: 'github', inbound_auth: { type: 'BEARER', tokens: ['sender-token-0123456789'] } })).id;
        await created('/v1/alert-rules', { name: 'github secret rotated?', target_ids: alertTargets, conditions: [{ kind: 'rejection_spike', endpoint_id: endpoint, outcome: 'AUTH_FAILED', threshold_percent: 80, min_requests: 5 }] });
        for (let i = 0; i < 8; i++)
            expect((await send(endpoint, { authorization: 'Bearer rotated-0000000000000' })).status).toBe(401);
        await (0, infra_1.eventually)(async () => hookAlerts('rejection_spike').length >= 1, 30_000, 'the rejection_spike alert');
        const [alert] = hookAlerts('rejection_spike');
        expect(alert.alert).toMatchObject({ kind: 'rejection_spike', endpoint_id: endpoint, detail: { outcome: 'AUTH_FAILED', requests: 8, rejected: 8 } });
        expect(alert.alert.link).toMatch(new RegExp(`^https://relay\\.example/dash/#/activity\\?endpoint_id=${endpoint}&from=\\d{4}-\\d\\d-\\d\\dT\\d\\d%3A\\d\\d&to=.+&status=errors$`));
        expect(alert.content).toContain('rotated its secret');
        await (0, infra_1.eventually)(async () => discordAlerts('github secret rotated?') >= 1, 30_000, 'the rejection_spike alert at the Discord fake');
    });
    it('once per episode: the failure rate still holds and more deliveries failed, yet no second failure_rate alert was sent', async () => {
        for (let i = 0; i < 6; i++)
            expect((await send(failingEndpoint)).status).toBe(202);
        // a detector pass that began after these failures were counted: a new rule's alert arrives
        // only through such a pass, and the same pass checks the failure rate again
        await created('/v1/alert-rules', { name: 'orders backend failing (second rule)', target_ids: [alertTargets[0]], conditions: [{ kind: 'failure_rate', target_id: failingTarget, threshold_percent: 50, window_minutes: 5, min_attempts: 5 }] });
        await (0, infra_1.eventually)(async () => hookAlerts('failure_rate').some((a) => a.alert.rule_name === 'orders backend failing (second rule)'), 30_000, 'the second rule’s alert');
        const first = hookAlerts('failure_rate').filter((a) => a.alert.rule_name === 'orders backend failing');
        expect(first).toHaveLength(1);
        // the condition was seen again and folded into the open episode, as the management API counts it
        const metrics = await (await fetch(`${stack.services['management-api'].healthUrl}/metrics`)).text();
        const folded = /^relay_alerts_total\{kind="failure_rate",result="deduplicated"\} (\d+)$/m.exec(metrics);
        expect(Number(folded?.[1] ?? 0)).toBeGreaterThan(0);
        expect(discordAlerts('orders backend failing:')).toBe(1);
    });
    it('the monthly quota nearly used: one alert at the threshold, linking to usage', async () => {
        const plan = await stack.api('/v1/account/plan', { method: 'PATCH', body: { monthly_accepted_events: 20 } });
        expect(plan.status).toBe(200);
        await created('/v1/alert-rules', { name: 'quota', target_ids: [alertTargets[0]], conditions: [{ kind: 'quota_nearly_used', threshold_percent: 50 }] });
        await (0, infra_1.eventually)(async () => hookAlerts('quota_nearly_used').length >= 1, 30_000, 'the quota alert');
        const [alert] = hookAlerts('quota_nearly_used');
        expect(alert.alert.link).toBe('https://relay.example/dash/#/usage');
        expect(alert.alert.detail.limit).toBe(20);
        expect(alert.alert.detail.used).toBeGreaterThanOrEqual(10);
    });
    it('a test alert goes to every target of the rule, marked as a test, and is in the history', async () => {
        const rules = await stack.api('/v1/alert-rules');
        const rule = rules.body.data.find((r) => r.name === 'github secret rotated?');
        const before = discordAlerts('[Relay test alert]');
        const res = await stack.api(`/v1/alert-rules/${rule.id}/test`, { method: 'POST' });
        expect(res.status).toBe(202);
        expect(res.body).toMatchObject({ rule_id: rule.id, test: true, kind: 'rejection_spike' });
        await (0, infra_1.eventually)(async () => hookAlerts().some((a) => a.alert.id === res.body.id && a.alert.test === true), 30_000, 'the test alert at the webhook receiver');
        await (0, infra_1.eventually)(async () => discordAlerts('[Relay test alert]') > before, 30_000, 'the test alert at the Discord fake');
        const history = await stack.api('/v1/alerts');
        expect(history.body.data[0]).toMatchObject({ id: res.body.id, test: true });
    });
});
//# sourceMappingURL=alerts.test.js.map