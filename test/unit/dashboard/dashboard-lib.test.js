"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_child_process_1 = require("node:child_process");
const contracts_1 = require("@relay/contracts");
const endpoints_1 = require("@relay/endpoints");
const curl_1 = require("../../../services/management-api/dashboard/src/lib/curl");
const fields_1 = require("../../../services/management-api/dashboard/src/lib/fields");
const latency_1 = require("../../../services/management-api/dashboard/src/lib/latency");
const outcome_1 = require("../../../services/management-api/dashboard/src/lib/outcome");
const payload_view_1 = require("../../../services/management-api/dashboard/src/lib/payload-view");
const roles_1 = require("../../../services/management-api/dashboard/src/lib/roles");
const document_1 = require("../../../services/management-api/src/openapi/document");
const roles_2 = require("../../../services/management-api/src/domain/roles");
const settings_1 = require("../../../services/management-api/dashboard/src/lib/settings");
const time_1 = require("../../../services/management-api/dashboard/src/lib/time");
/** The dashboard's pure parts: what the browser test cannot cover case by case. */
const endpoint = {
    id: 'ep_1',
    name: 'orders',
    ingest_url: 'https://relay.example/relay/ep_1',
    methods: ['POST'],
    payload_format: 'json',
    query_param_name: null,
    query_param_required: true,
    inbound_auth: { type: 'NONE' },
    required_headers: [],
    body_filters: [],
    field_rules: [],
    ip_access: { allow: [], deny: [] },
    captcha: null,
    rate_limit_per_minute: null,
    maintenance_windows: [],
};
describe('the curl line shown beside the ingest URL', () => {
    it('sends JSON with POST by default', () => {
        expect((0, curl_1.curlLine)(endpoint)).toBe(`curl -i -X POST 'https://relay.example/relay/ep_1' -H 'content-type: application/json' --data-raw '{"hello":"relay"}'`);
    });
    it('follows the payload format, method, required headers and auth (placeholders for secrets)', () => {
        expect((0, curl_1.curlLine)({ ...endpoint, payload_format: 'form' })).toContain(`-H 'content-type: application/x-www-form-urlencoded' --data-raw 'hello=relay'`);
        expect((0, curl_1.curlLine)({ ...endpoint, payload_format: 'query', methods: ['GET', 'POST'] })).toBe(`curl -i -X GET 'https://relay.example/relay/ep_1?hello=relay'`);
        const b64 = (0, curl_1.curlLine)({ ...endpoint, payload_format: 'query_base64_json', methods: ['GET'], query_param_name: 'p+q' });
        expect(b64).toBe(`curl -i -X GET 'https://relay.example/relay/ep_1?p%2Bq=${encodeURIComponent(Buffer.from('{"hello":"relay"}').toString('base64'))}'`);
        expect((0, curl_1.curlLine)({ ...endpoint, payload_format: 'none', methods: ['DELETE'] })).toBe(`curl -i -X DELETE 'https://relay.example/relay/ep_1'`);
        expect((0, curl_1.curlLine)({ ...endpoint, inbound_auth: { type: 'BEARER' } })).toContain(`-H 'authorization: Bearer <token>'`);
        expect((0, curl_1.curlLine)({ ...endpoint, inbound_auth: { type: 'API_KEY', header: 'X-Key' } })).toContain(`-H 'X-Key: <api key>'`);
        expect((0, curl_1.curlLine)({ ...endpoint, inbound_auth: { type: 'BASIC', credentials: [{ username: 'svc' }] } })).toContain(`-u 'svc:<password>'`);
        expect((0, curl_1.curlLine)({ ...endpoint, required_headers: [{ name: 'X-Tenant', value: 'acme' }, { name: 'X-Any' }] })).toContain(`-H 'X-Tenant: acme' -H 'X-Any: <value>'`);
    });
    it('quotes for the shell so a value comes through byte for byte', () => {
        const value = `it's "$HOME" \`x\` \\ ;|&`;
        expect((0, node_child_process_1.execFileSync)('bash', ['-c', `printf %s ${(0, curl_1.shellQuote)(value)}`]).toString()).toBe(value);
    });
});
describe('API errors placed at form fields', () => {
    it('uses the exact field when the form has it, else the nearest enclosing one, else none', () => {
        const known = new Set(['name', 'inbound_auth', 'inbound_auth.bearer.tokens[0]', 'ip_access.allow']);
        expect((0, fields_1.fieldFor)('name', known)).toBe('name');
        expect((0, fields_1.fieldFor)('inbound_auth.bearer.tokens[0]', known)).toBe('inbound_auth.bearer.tokens[0]');
        expect((0, fields_1.fieldFor)('inbound_auth.bearer.tokens[1]', known)).toBe('inbound_auth');
        expect((0, fields_1.fieldFor)('ip_access.allow[3]', known)).toBe('ip_access.allow');
        expect((0, fields_1.fieldFor)('(body)', known)).toBeNull();
        expect((0, fields_1.errorMap)([{ field: 'name', message: 'a' }, { field: 'name', message: 'b' }]).get('name')).toEqual(['a', 'b']);
    });
});
describe('the settings form', () => {
    it('offers exactly the values @relay/endpoints accepts', () => {
        expect([...settings_1.BODY_FILTER_KINDS]).toEqual([...endpoints_1.BODY_FILTER_KINDS]);
        expect([...settings_1.FIELD_TYPES]).toEqual([...endpoints_1.FIELD_TYPES]);
        expect([...settings_1.CAPTCHA_PROVIDERS]).toEqual([...endpoints_1.CAPTCHA_PROVIDERS]);
    });
    it('sends nothing for an untouched form, and only the settings that changed', () => {
        const stored = { ...endpoint, inbound_auth: { type: 'BEARER', tokens: [{ set: true, last4: 'WXYZ' }] } };
        const draft = (0, settings_1.draftOf)(stored);
        expect((0, settings_1.changedSettings)(stored, (0, settings_1.settingsBody)(draft))).toEqual({});
        draft.rate_limit = '1200';
        draft.ip_allow = '203.0.113.0/24\n\n2001:db8::/32';
        expect((0, settings_1.changedSettings)(stored, (0, settings_1.settingsBody)(draft))).toEqual({ rate_limit_per_minute: 1200, ip_access: { allow: ['203.0.113.0/24', '2001:db8::/32'], deny: [] } });
    });
    it('keeps a stored secret by its slot and sends a new one only when typed (write-only secrets)', () => {
        const stored = { ...endpoint, inbound_auth: { type: 'BEARER', tokens: [{ set: true, last4: 'WXYZ' }] } };
        const draft = (0, settings_1.draftOf)(stored);
        expect(draft.auth.slots).toEqual([{ keep: 0, hint: '…WXYZ', value: '', username: '' }]);
        draft.auth = { ...draft.auth, touched: true, slots: [...draft.auth.slots, { keep: null, hint: '', value: 'new-token', username: '' }] };
        expect((0, settings_1.settingsBody)(draft).inbound_auth).toEqual({ type: 'BEARER', tokens: [{ keep: 0 }, 'new-token'] });
        const basic = (0, settings_1.draftOf)({ ...endpoint, inbound_auth: { type: 'BASIC', credentials: [{ username: 'svc', password: { set: true } }] } });
        basic.auth.touched = true;
        expect((0, settings_1.settingsBody)(basic).inbound_auth).toEqual({ type: 'BASIC', credentials: [{ username: 'svc', password: { keep: 0 } }] });
    });
    it('removes a stored captcha with null and keeps its secret by slot', () => {
        const stored = { ...endpoint, captcha: { provider: 'turnstile', secret: { set: true }, verify_url: 'https://x.example/v', field: 'tok' } };
        const draft = (0, settings_1.draftOf)(stored);
        draft.captcha = { ...draft.captcha, field: 'token', touched: true };
        expect((0, settings_1.settingsBody)(draft).captcha).toEqual({ provider: 'turnstile', secret: { keep: 0 }, verify_url: 'https://x.example/v', field: 'token' });
        draft.captcha = { ...draft.captcha, on: false };
        expect((0, settings_1.settingsBody)(draft).captcha).toBeNull();
    });
});
describe('the activity view', () => {
    const row = (id, status = 'completed') => ({ id, status });
    it('shows every outcome with the label the error-text search matches (issue 27, item 2)', () => {
        for (const outcome of contracts_1.OUTCOMES) {
            for (const status of ['completed', 'pending', 'errors']) {
                expect((0, outcome_1.outcomeLabel)({ outcome, status, next_attempt_at: null })).toBe((0, contracts_1.outcomeLabel)(outcome, status));
                expect((0, outcome_1.outcomeLabel)({ outcome, status, next_attempt_at: '2030-01-01T00:00:00.000Z' })).toBe((0, contracts_1.outcomeLabel)(outcome, status, true));
            }
        }
    });
    it('reads a pending row whose failed delivery waits for its next attempt as Retrying, not Pending (issue 25 item 5)', () => {
        expect((0, outcome_1.outcomeLabel)({ outcome: 'ACCEPTED', status: 'pending', next_attempt_at: '2030-01-01T00:00:00.000Z' })).toBe('Retrying (ACCEPTED)');
        expect((0, outcome_1.isRetrying)({ status: 'pending', next_attempt_at: '2030-01-01T00:00:00.000Z' })).toBe(true);
        // a row never tried has no next attempt; one failed for good is Errors whatever else waits
        expect((0, outcome_1.isRetrying)({ status: 'pending', next_attempt_at: null })).toBe(false);
        expect((0, outcome_1.outcomeLabel)({ outcome: 'ACCEPTED', status: 'errors', next_attempt_at: '2030-01-01T00:00:00.000Z' })).toBe('Delivery failed (ACCEPTED)');
    });
    it('labels outcomes as the spec does: label with code', () => {
        expect((0, outcome_1.outcomeLabel)({ outcome: 'ACCEPTED', status: 'completed', next_attempt_at: null })).toBe('Completed (ACCEPTED)');
        expect((0, outcome_1.outcomeLabel)({ outcome: 'ACCEPTED', status: 'pending', next_attempt_at: null })).toBe('Pending (ACCEPTED)');
        expect((0, outcome_1.outcomeLabel)({ outcome: 'AUTH_FAILED', status: 'errors', next_attempt_at: null })).toBe('Auth Failed (AUTH_FAILED)');
        expect((0, outcome_1.outcomeLabel)({ outcome: 'IP_BLOCKED', status: 'errors', next_attempt_at: null })).toBe('IP Blocked (IP_BLOCKED)');
        expect((0, outcome_1.outcomeLabel)({ outcome: 'METHOD_NOT_ALLOWED', status: 'errors', next_attempt_at: null })).toBe('Method Not Allowed (METHOD_NOT_ALLOWED)');
    });
    it('tails by merging the first page on top: new rows first, known rows updated in place', () => {
        const shown = [row('b', 'pending'), row('a')];
        const { rows, added } = (0, outcome_1.mergeNewest)(shown, [row('c'), row('b', 'completed')]);
        expect(added).toBe(1);
        expect(rows).toEqual([row('c'), row('b', 'completed'), row('a')]);
        expect((0, outcome_1.appendPage)(rows, [row('a'), row('z')]).map((r) => r.id)).toEqual(['c', 'b', 'a', 'z']);
    });
    it('measures each delivery from its own start to the end of its final attempt, skipping unfinished ones (issue 27, item 7)', () => {
        const points = (0, latency_1.latencyPoints)([
            {
                id: 'evt_1',
                received_at: '2030-01-01T00:00:00.000Z',
                deliveries: [
                    { delivery_id: 'dlv_1_t1', target_id: 't1', state: 'delivered', started_at: '2030-01-01T00:00:00.000Z', attempts: [{ attempted_at: '2030-01-01T00:00:00.010Z', duration_ms: 5 }, { attempted_at: '2030-01-01T00:00:05.000Z', duration_ms: 20 }] },
                    { delivery_id: 'dlv_1_t2', target_id: 't2', state: 'retrying', started_at: '2030-01-01T00:00:00.000Z', attempts: [{ attempted_at: '2030-01-01T00:00:00.010Z', duration_ms: 5 }] },
                    // resent a minute later: 30 ms from its resend, not a minute and 30 ms from the receipt
                    { delivery_id: 'dlv_1_t1_rX', target_id: 't1', state: 'delivered', started_at: '2030-01-01T00:01:00.000Z', attempts: [{ attempted_at: '2030-01-01T00:01:00.010Z', duration_ms: 20 }] },
                ],
            },
        ]);
        expect(points).toEqual([
            { at: Date.parse('2030-01-01T00:00:00.000Z'), ms: 5020, state: 'delivered', eventId: 'evt_1', targetId: 't1', deliveryId: 'dlv_1_t1' },
            { at: Date.parse('2030-01-01T00:01:00.000Z'), ms: 30, state: 'delivered', eventId: 'evt_1', targetId: 't1', deliveryId: 'dlv_1_t1_rX' },
        ]);
        expect((0, latency_1.quantile)([5, 1, 3, 2, 4], 0.5)).toBe(3);
        expect((0, latency_1.quantile)([5, 1, 3, 2, 4], 0.95)).toBe(5);
        expect((0, latency_1.quantile)([], 0.5)).toBeNull();
    });
    it('reads and writes window times in UTC', () => {
        expect((0, time_1.fromLocalInput)('2030-01-01T10:30')).toBe('2030-01-01T10:30:00.000Z');
        expect((0, time_1.fromLocalInput)('')).toBeUndefined();
        expect((0, time_1.toLocalInput)('2030-01-01T10:30:00.000Z')).toBe('2030-01-01T10:30');
    });
});
describe('roles, read from the API\'s own OpenAPI document (issue 27, item 4)', () => {
    const table = (0, roles_1.roleTable)(document_1.managementApiDocument);
    const ops = [...table.keys()];
    it('allows each role exactly the operations the API lets it call', () => {
        expect(ops.length).toBeGreaterThan(30);
        for (const role of roles_2.API_KEY_ROLES) {
            const can = (0, roles_1.abilitiesOf)(role, table);
            for (const op of ops) {
                const least = table.get(op);
                expect([op, can.may(op)]).toEqual([op, least === null || least === undefined || (0, roles_2.allows)(role, least)]);
            }
        }
    });
    it('shows changes to owner, admin and editor; usage, keys and the account audit to owner and admin only', () => {
        const pick = (role) => {
            const { edit, readUsage, manageKeys, readAccountAudit } = (0, roles_1.abilitiesOf)(role, table);
            return { edit, readUsage, manageKeys, readAccountAudit };
        };
        expect(pick('owner')).toEqual({ edit: true, readUsage: true, manageKeys: true, readAccountAudit: true });
        expect(pick('admin')).toEqual({ edit: true, readUsage: true, manageKeys: true, readAccountAudit: true });
        expect(pick('editor')).toEqual({ edit: true, readUsage: false, manageKeys: false, readAccountAudit: false });
        expect(pick('viewer')).toEqual({ edit: false, readUsage: false, manageKeys: false, readAccountAudit: false });
    });
    it('allows nothing the document does not name, and nothing to a role it does not know', () => {
        expect((0, roles_1.abilitiesOf)('owner', table).may('noSuchOperation')).toBe(false);
        expect((0, roles_1.abilitiesOf)('root', table).may('listEndpoints')).toBe(false);
    });
});
describe('a problem no control shows, in words', () => {
    it('says an API path as a person reads it', () => {
        expect((0, fields_1.pathWords)('config.custom_headers[0].name')).toBe('custom headers › 1 › name');
        expect((0, fields_1.pathWords)('maintenance_windows[1].ends_at')).toBe('maintenance windows › 2 › ends at');
    });
});
describe('the payload views of a row (issue 27, item 1)', () => {
    it('indents JSON, one element a line for XML, none for other text or JSON that does not parse', () => {
        expect((0, payload_view_1.prettyPayload)('{"order":42,"items":[1]}', 'application/json')).toBe('{\n  "order": 42,\n  "items": [\n    1\n  ]\n}');
        expect((0, payload_view_1.prettyPayload)('<order><id>42</id><note/></order>', 'application/xml')).toBe('<order>\n  <id>42</id>\n  <note/>\n</order>');
        expect((0, payload_view_1.prettyPayload)('a=1&b=2', 'application/x-www-form-urlencoded')).toBeNull();
        expect((0, payload_view_1.prettyPayload)('{"order":', 'application/json')).toBeNull();
    });
    it('says sizes as people read them', () => {
        expect([(0, payload_view_1.formatBytes)(512), (0, payload_view_1.formatBytes)(1536), (0, payload_view_1.formatBytes)(3 * 1024 * 1024)]).toEqual(['512 B', '1.5 KB', '3.00 MB']);
    });
});
//# sourceMappingURL=dashboard-lib.test.js.map