import { execFileSync } from 'node:child_process';
import { OUTCOMES, outcomeLabel as searchedLabel } from '@relay/contracts';
import {
  BODY_FILTER_KINDS as LIB_FILTER_KINDS,
  CAPTCHA_PROVIDERS as LIB_CAPTCHA,
  FIELD_TYPES as LIB_FIELD_TYPES,
} from '@relay/endpoints';
import type { AuditRow } from '@relay/client';
import { changeText } from '../../../services/management-api/dashboard/src/lib/audit-text';
import { namesShown } from '../../../services/management-api/dashboard/src/lib/display';
import { curlLine, shellQuote } from '../../../services/management-api/dashboard/src/lib/curl';
import { errorMap, fieldFor, pathWords } from '../../../services/management-api/dashboard/src/lib/fields';
import { latencyPoints, quantile } from '../../../services/management-api/dashboard/src/lib/latency';
import { lineDiff } from '../../../services/management-api/dashboard/src/lib/line-diff';
import {
  appendPage,
  isRetrying,
  mergeNewest,
  outcomeLabel,
} from '../../../services/management-api/dashboard/src/lib/outcome';
import { formatBytes, prettyPayload } from '../../../services/management-api/dashboard/src/lib/payload-view';
import { abilitiesOf, roleTable } from '../../../services/management-api/dashboard/src/lib/roles';
import {
  changeLine,
  outcomeLine,
  shownValue,
} from '../../../services/management-api/dashboard/src/lib/transform-preview';
import type { PreviewResult } from '../../../services/management-api/dashboard/src/lib/transform-preview';
import { managementApiDocument } from '../../../services/management-api/src/openapi/document';
import { API_KEY_ROLES, allows } from '../../../services/management-api/src/domain/roles';
import {
  BODY_FILTER_KINDS,
  CAPTCHA_PROVIDERS,
  FIELD_TYPES,
  changedSettings,
  draftOf,
  settingsBody,
} from '../../../services/management-api/dashboard/src/lib/settings';
import { fromLocalInput, toLocalInput } from '../../../services/management-api/dashboard/src/lib/time';

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
  required_headers: [] as Array<{ name: string; value?: string }>,
  body_filters: [],
  field_rules: [],
  ip_access: { allow: [], deny: [] },
  captcha: null,
  rate_limit_per_minute: null,
  maintenance_windows: [],
};

describe('the curl line shown beside the ingest URL', () => {
  it('sends JSON with POST by default', () => {
    expect(curlLine(endpoint)).toBe(
      `curl -i -X POST 'https://relay.example/relay/ep_1' -H 'content-type: application/json' --data-raw '{"hello":"relay"}'`,
    );
  });

  it('follows the payload format, method, required headers and auth (placeholders for secrets)', () => {
    expect(curlLine({ ...endpoint, payload_format: 'form' })).toContain(
      `-H 'content-type: application/x-www-form-urlencoded' --data-raw 'hello=relay'`,
    );
    expect(curlLine({ ...endpoint, payload_format: 'query', methods: ['GET', 'POST'] })).toBe(
      `curl -i -X GET 'https://relay.example/relay/ep_1?hello=relay'`,
    );
    const b64 = curlLine({
      ...endpoint,
      payload_format: 'query_base64_json',
      methods: ['GET'],
      query_param_name: 'p+q',
    });
    expect(b64).toBe(
      `curl -i -X GET 'https://relay.example/relay/ep_1?p%2Bq=${encodeURIComponent(Buffer.from('{"hello":"relay"}').toString('base64'))}'`,
    );
    expect(curlLine({ ...endpoint, payload_format: 'none', methods: ['DELETE'] })).toBe(
      `curl -i -X DELETE 'https://relay.example/relay/ep_1'`,
    );
    expect(curlLine({ ...endpoint, inbound_auth: { type: 'BEARER' } })).toContain(`-H 'authorization: Bearer <token>'`);
    expect(curlLine({ ...endpoint, inbound_auth: { type: 'API_KEY', header: 'X-Key' } })).toContain(
      `-H 'X-Key: <api key>'`,
    );
    expect(curlLine({ ...endpoint, inbound_auth: { type: 'BASIC', credentials: [{ username: 'svc' }] } })).toContain(
      `-u 'svc:<password>'`,
    );
    expect(
      curlLine({ ...endpoint, required_headers: [{ name: 'X-Tenant', value: 'acme' }, { name: 'X-Any' }] }),
    ).toContain(`-H 'X-Tenant: acme' -H 'X-Any: <value>'`);
  });

  it('quotes for the shell so a value comes through byte for byte', () => {
    const value = `it's "$HOME" \`x\` \\ ;|&`;
    expect(execFileSync('bash', ['-c', `printf %s ${shellQuote(value)}`]).toString()).toBe(value);
  });
});

describe('API errors placed at form fields', () => {
  it('uses the exact field when the form has it, else the nearest enclosing one, else none', () => {
    const known = new Set(['name', 'inbound_auth', 'inbound_auth.bearer.tokens[0]', 'ip_access.allow']);
    expect(fieldFor('name', known)).toBe('name');
    expect(fieldFor('inbound_auth.bearer.tokens[0]', known)).toBe('inbound_auth.bearer.tokens[0]');
    expect(fieldFor('inbound_auth.bearer.tokens[1]', known)).toBe('inbound_auth');
    expect(fieldFor('ip_access.allow[3]', known)).toBe('ip_access.allow');
    expect(fieldFor('(body)', known)).toBeNull();
    expect(
      errorMap([
        { field: 'name', message: 'a' },
        { field: 'name', message: 'b' },
      ]).get('name'),
    ).toEqual(['a', 'b']);
  });
});

describe('the settings form', () => {
  it('offers exactly the values @relay/endpoints accepts', () => {
    expect([...BODY_FILTER_KINDS]).toEqual([...LIB_FILTER_KINDS]);
    expect([...FIELD_TYPES]).toEqual([...LIB_FIELD_TYPES]);
    expect([...CAPTCHA_PROVIDERS]).toEqual([...LIB_CAPTCHA]);
  });

  it('sends nothing for an untouched form, and only the settings that changed', () => {
    const stored = { ...endpoint, inbound_auth: { type: 'BEARER', tokens: [{ set: true, last4: 'WXYZ' }] } };
    const draft = draftOf(stored);
    expect(changedSettings(stored, settingsBody(draft))).toEqual({});
    draft.rate_limit = '1200';
    draft.ip_allow = '203.0.113.0/24\n\n2001:db8::/32';
    expect(changedSettings(stored, settingsBody(draft))).toEqual({
      rate_limit_per_minute: 1200,
      ip_access: { allow: ['203.0.113.0/24', '2001:db8::/32'], deny: [] },
    });
  });

  it('keeps a stored secret by its slot and sends a new one only when typed (write-only secrets)', () => {
    const stored = { ...endpoint, inbound_auth: { type: 'BEARER', tokens: [{ set: true, last4: 'WXYZ' }] } };
    const draft = draftOf(stored);
    expect(draft.auth.slots).toEqual([{ keep: 0, hint: '…WXYZ', value: '', username: '' }]);
    draft.auth = {
      ...draft.auth,
      touched: true,
      slots: [...draft.auth.slots, { keep: null, hint: '', value: 'new-token', username: '' }],
    };
    expect(settingsBody(draft).inbound_auth).toEqual({ type: 'BEARER', tokens: [{ keep: 0 }, 'new-token'] });
    const basic = draftOf({
      ...endpoint,
      inbound_auth: { type: 'BASIC', credentials: [{ username: 'svc', password: { set: true } }] },
    });
    basic.auth.touched = true;
    expect(settingsBody(basic).inbound_auth).toEqual({
      type: 'BASIC',
      credentials: [{ username: 'svc', password: { keep: 0 } }],
    });
  });

  it('removes a stored captcha with null and keeps its secret by slot', () => {
    const stored = {
      ...endpoint,
      captcha: { provider: 'turnstile', secret: { set: true }, verify_url: 'https://x.example/v', field: 'tok' },
    };
    const draft = draftOf(stored);
    draft.captcha = { ...draft.captcha, field: 'token', touched: true };
    expect(settingsBody(draft).captcha).toEqual({
      provider: 'turnstile',
      secret: { keep: 0 },
      verify_url: 'https://x.example/v',
      field: 'token',
    });
    draft.captcha = { ...draft.captcha, on: false };
    expect(settingsBody(draft).captcha).toBeNull();
  });
});

describe('the activity view', () => {
  const row = (id: string, status: 'completed' | 'pending' | 'errors' = 'completed') => ({ id, status });

  it('shows every outcome with the label the error-text search matches', () => {
    // null: the row's deliveries came before the gateway's record of the request
    for (const outcome of [...OUTCOMES, null]) {
      for (const status of ['completed', 'pending', 'errors'] as const) {
        expect(outcomeLabel({ outcome, status, next_attempt_at: null })).toBe(searchedLabel(outcome, status));
        expect(outcomeLabel({ outcome, status, next_attempt_at: '2030-01-01T00:00:00.000Z' })).toBe(
          searchedLabel(outcome, status, true),
        );
      }
    }
  });

  it('reads a pending row whose failed delivery waits for its next attempt as Retrying, not Pending', () => {
    expect(outcomeLabel({ outcome: 'ACCEPTED', status: 'pending', next_attempt_at: '2030-01-01T00:00:00.000Z' })).toBe(
      'Retrying (ACCEPTED)',
    );
    expect(isRetrying({ status: 'pending', next_attempt_at: '2030-01-01T00:00:00.000Z' })).toBe(true);
    // a row never tried has no next attempt; one failed for good is Errors whatever else waits
    expect(isRetrying({ status: 'pending', next_attempt_at: null })).toBe(false);
    expect(outcomeLabel({ outcome: 'ACCEPTED', status: 'errors', next_attempt_at: '2030-01-01T00:00:00.000Z' })).toBe(
      'Delivery failed (ACCEPTED)',
    );
  });

  it('labels outcomes as the spec does: label with code', () => {
    expect(outcomeLabel({ outcome: 'ACCEPTED', status: 'completed', next_attempt_at: null })).toBe(
      'Completed (ACCEPTED)',
    );
    expect(outcomeLabel({ outcome: 'ACCEPTED', status: 'pending', next_attempt_at: null })).toBe('Pending (ACCEPTED)');
    expect(outcomeLabel({ outcome: 'AUTH_FAILED', status: 'errors', next_attempt_at: null })).toBe(
      'Auth Failed (AUTH_FAILED)',
    );
    expect(outcomeLabel({ outcome: 'IP_BLOCKED', status: 'errors', next_attempt_at: null })).toBe(
      'IP Blocked (IP_BLOCKED)',
    );
    expect(outcomeLabel({ outcome: 'METHOD_NOT_ALLOWED', status: 'errors', next_attempt_at: null })).toBe(
      'Method Not Allowed (METHOD_NOT_ALLOWED)',
    );
    // deliveries only: an accepted request whose record is still on its way to the log
    expect(outcomeLabel({ outcome: null, status: 'pending', next_attempt_at: null })).toBe(
      'Pending (request not recorded yet)',
    );
  });

  it('tails by merging the first page on top: new rows first, known rows updated in place', () => {
    const shown = [row('b', 'pending'), row('a')];
    const { rows, added } = mergeNewest(shown, [row('c'), row('b', 'completed')]);
    expect(added).toBe(1);
    expect(rows).toEqual([row('c'), row('b', 'completed'), row('a')]);
    expect(appendPage(rows, [row('a'), row('z')]).map((r) => r.id)).toEqual(['c', 'b', 'a', 'z']);
  });

  it('measures each delivery from its own start to the end of its final attempt, skipping unfinished ones', () => {
    const points = latencyPoints([
      {
        id: 'evt_1',
        received_at: '2030-01-01T00:00:00.000Z',
        deliveries: [
          {
            delivery_id: 'dlv_1_t1',
            target_id: 't1',
            state: 'delivered',
            started_at: '2030-01-01T00:00:00.000Z',
            attempts: [
              { attempted_at: '2030-01-01T00:00:00.010Z', duration_ms: 5 },
              { attempted_at: '2030-01-01T00:00:05.000Z', duration_ms: 20 },
            ],
          },
          {
            delivery_id: 'dlv_1_t2',
            target_id: 't2',
            state: 'retrying',
            started_at: '2030-01-01T00:00:00.000Z',
            attempts: [{ attempted_at: '2030-01-01T00:00:00.010Z', duration_ms: 5 }],
          },
          // resent a minute later: 30 ms from its resend, not a minute and 30 ms from the receipt
          {
            delivery_id: 'dlv_1_t1_rX',
            target_id: 't1',
            state: 'delivered',
            started_at: '2030-01-01T00:01:00.000Z',
            attempts: [{ attempted_at: '2030-01-01T00:01:00.010Z', duration_ms: 20 }],
          },
        ],
      },
    ]);
    expect(points).toEqual([
      {
        at: Date.parse('2030-01-01T00:00:00.000Z'),
        ms: 5020,
        state: 'delivered',
        eventId: 'evt_1',
        targetId: 't1',
        deliveryId: 'dlv_1_t1',
      },
      {
        at: Date.parse('2030-01-01T00:01:00.000Z'),
        ms: 30,
        state: 'delivered',
        eventId: 'evt_1',
        targetId: 't1',
        deliveryId: 'dlv_1_t1_rX',
      },
    ]);
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([5, 1, 3, 2, 4], 0.95)).toBe(5);
    expect(quantile([], 0.5)).toBeNull();
  });

  it('reads and writes window times in UTC', () => {
    expect(fromLocalInput('2030-01-01T10:30')).toBe('2030-01-01T10:30:00.000Z');
    expect(fromLocalInput('2030-01-01 10:30')).toBe('2030-01-01T10:30:00.000Z');
    expect(fromLocalInput('')).toBeUndefined();
    // not a time: passed on as typed, for the API to name at its field
    expect(fromLocalInput('tomorrow')).toBe('tomorrow');
    expect(toLocalInput('2030-01-01T10:30:00.000Z')).toBe('2030-01-01 10:30');
  });
});

describe("roles, read from the API's own OpenAPI document", () => {
  const table = roleTable(managementApiDocument as unknown as Parameters<typeof roleTable>[0]);
  const ops = [...table.keys()];

  it('allows each role exactly the operations the API lets it call', () => {
    expect(ops.length).toBeGreaterThan(30);
    for (const role of API_KEY_ROLES) {
      const can = abilitiesOf(role, table);
      for (const op of ops) {
        const least = table.get(op);
        expect([op, can.may(op)]).toEqual([
          op,
          least === null || least === undefined || allows(role, least as typeof role),
        ]);
      }
    }
  });

  it('shows changes to owner, admin and editor; usage, keys and the account audit to owner and admin only', () => {
    const pick = (role: string) => {
      const { edit, readUsage, manageKeys, readAccountAudit } = abilitiesOf(role, table);
      return { edit, readUsage, manageKeys, readAccountAudit };
    };
    expect(pick('owner')).toEqual({ edit: true, readUsage: true, manageKeys: true, readAccountAudit: true });
    expect(pick('admin')).toEqual({ edit: true, readUsage: true, manageKeys: true, readAccountAudit: true });
    expect(pick('editor')).toEqual({ edit: true, readUsage: false, manageKeys: false, readAccountAudit: false });
    expect(pick('viewer')).toEqual({ edit: false, readUsage: false, manageKeys: false, readAccountAudit: false });
  });

  it('allows nothing the document does not name, and nothing to a role it does not know', () => {
    expect(abilitiesOf('owner', table).may('noSuchOperation')).toBe(false);
    expect(abilitiesOf('root', table).may('listEndpoints')).toBe(false);
  });
});

describe('a problem no control shows, in words', () => {
  it('says an API path as a person reads it', () => {
    expect(pathWords('config.custom_headers[0].name')).toBe('custom headers › 1 › name');
    expect(pathWords('maintenance_windows[1].ends_at')).toBe('maintenance windows › 2 › ends at');
  });
});

describe('the payload views of a row', () => {
  it('indents JSON, one element a line for XML, none for other text or JSON that does not parse', () => {
    expect(prettyPayload('{"order":42,"items":[1]}', 'application/json')).toBe(
      '{\n  "order": 42,\n  "items": [\n    1\n  ]\n}',
    );
    expect(prettyPayload('<order><id>42</id><note/></order>', 'application/xml')).toBe(
      '<order>\n  <id>42</id>\n  <note/>\n</order>',
    );
    expect(prettyPayload('a=1&b=2', 'application/x-www-form-urlencoded')).toBeNull();
    expect(prettyPayload('{"order":', 'application/json')).toBeNull();
  });
  it('says sizes as people read them', () => {
    expect([formatBytes(512), formatBytes(1536), formatBytes(3 * 1024 * 1024)]).toEqual(['512 B', '1.5 KB', '3.00 MB']);
  });
});

describe('names stored before invisible characters were refused, as every page shows them', () => {
  const row = (action: string, details: Record<string, unknown>) =>
    namesShown({ action, details, actor_name: 'ops\u2066' }) as unknown as AuditRow;
  it('an API answer shows every name and …_name at any depth escaped, and nothing else changed', () => {
    const answer = {
      data: [{ id: 'ep_1', name: 'invoice\u202Efdp.exe', description: 'a\u200Bb', targets: [{ name: 'x\u001b[31m' }] }],
      actor_name: 'c\u200Bi',
      count: 1,
      next: null,
    };
    expect(namesShown(answer)).toEqual({
      data: [
        { id: 'ep_1', name: 'invoice\\u202Efdp.exe', description: 'a\u200Bb', targets: [{ name: 'x\\u001B[31m' }] },
      ],
      actor_name: 'c\\u200Bi',
      count: 1,
      next: null,
    });
    // a name shown once is shown the same again: the escape is printable text
    expect(namesShown(namesShown(answer))).toEqual(namesShown(answer));
  });
  it('audit history names a target, a key and the person who acted with those characters escaped', () => {
    const target = row('target_updated', { name: 'hook\u202Etxt.exe', fields: ['name'] });
    expect(changeText(target)).toBe('“hook\\u202Etxt.exe”: name');
    expect(target.actor_name).toBe('ops\\u2066');
    expect(changeText(row('key_created', { role: 'viewer', prefix: 'rk_ab', name: 'c\u200Bi' }))).toBe(
      'viewer key rk_ab… “c\\u200Bi”',
    );
    expect(changeText(row('plan_changed', { before: { name: 'a\u202E' }, after: { name: 'b' } }))).toBe(
      'name: a\\u202E → b',
    );
  });
});

describe('transformations as the endpoint page shows them', () => {
  const request = { method: 'POST', path: '/relay/ep_1', query: {}, headers: {}, body: { n: 1 } };
  const result = (over: Partial<PreviewResult>): PreviewResult => ({
    event_id: 'ev_1',
    input: request,
    output: request,
    dropped: false,
    diff: { changes: [], total: 0 },
    logs: [],
    duration_ms: 0.4,
    error: null,
    line: null,
    ...over,
  });

  it('says what a draft did to a request: failed at its line, dropped, unchanged, or how many changes', () => {
    expect(outcomeLine(result({ output: null, error: 'Error: zero', line: 3 }))).toBe('Failed at line 3: Error: zero');
    expect(outcomeLine(result({ output: null, error: 'timed out' }))).toBe('Failed: timed out');
    expect(outcomeLine(result({ output: null, dropped: true, diff: null }))).toBe(
      'Dropped: nothing would be sent for this request.',
    );
    expect(outcomeLine(result({}))).toBe('Unchanged.');
    expect(outcomeLine(result({ diff: { changes: [], total: 1 } }))).toBe('1 change.');
    expect(outcomeLine(result({ diff: { changes: [], total: 3 } }))).toBe('3 changes.');
  });

  it('shows each change by path: added, removed, or before → after', () => {
    expect(changeLine({ path: 'body.total', before: 1250, after: 12.5 })).toBe('body.total: 1250 → 12.5');
    expect(changeLine({ path: 'headers.x-id', after: 'a' })).toBe('+ headers.x-id: "a"');
    expect(changeLine({ path: 'body.noise', before: 'x' })).toBe('− body.noise: "x"');
    expect(changeLine({ path: 'body', before: null, after: { a: [1] } })).toBe('body: null → {"a":[1]}');
    expect([shownValue('text'), shownValue({ a: 1 }), shownValue(undefined)]).toEqual([
      '"text"',
      '{\n  "a": 1\n}',
      '—',
    ]);
  });

  it('compares two versions line by line: kept, removed and added lines in order', () => {
    expect(lineDiff('(r) => {\n  return r;\n}\n', '(r) => {\n  console.log(1);\n  return r;\n}\n')).toEqual([
      { kind: 'same', text: '(r) => {' },
      { kind: 'added', text: '  console.log(1);' },
      { kind: 'same', text: '  return r;' },
      { kind: 'same', text: '}' },
    ]);
    expect(lineDiff('a\nb', 'a\nc')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'c' },
    ]);
  });

  it('names each transformation change in the audit history by its scope and version', () => {
    const row = (action: string, details: Record<string, unknown>) => ({ action, details }) as unknown as AuditRow;
    expect(changeText(row('transformation_saved', { scope: 'endpoint', scope_id: 'ep_1', version: 2 }))).toBe(
      'Endpoint transformation: version 2',
    );
    expect(
      changeText(row('transformation_restored', { scope: 'target', scope_id: 'tg_1', version: 3, restored_from: 1 })),
    ).toBe('Target tg_1 transformation: version 3 (restored version 1)');
    expect(changeText(row('transformation_removed', { scope: 'endpoint', scope_id: 'ep_1' }))).toBe(
      'Endpoint transformation',
    );
  });
});
