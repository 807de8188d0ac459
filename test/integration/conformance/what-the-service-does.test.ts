import { eventually } from '../../support/infra';
import { IngestHarness } from '../ingest/harness';
import type { GatewayInstance } from '../ingest/harness';
import { deliveredBody, send } from '../ingest/http';

/** Spec "What the service does": the nine steps, in their order. */
let h: IngestHarness;
let gw: GatewayInstance;
let account: string;

beforeAll(async () => {
  h = await IngestHarness.start('conf-what');
  gw = await h.gateway();
  account = await h.account();
});

afterAll(async () => {
  await h?.stop();
});

describe('What the service does', () => {
  it('"1. Checks that the endpoint is enabled and not paused": disabled → 404, paused → 503, neither leaves a row', async () => {
    const disabled = await h.endpoint(account, { enabled: false });
    const paused = await h.endpoint(account, { paused: true });
    expect((await send(gw, disabled)).status).toBe(404);
    expect((await send(gw, paused)).status).toBe(503);
    await h.expectNoRows(disabled, gw);
    await h.expectNoRows(paused, gw);
  });

  it('"2. Checks that the method is allowed for the endpoint": 405 METHOD_NOT_ALLOWED', async () => {
    const id = await h.endpoint(account, { methods: ['POST'] });
    const res = await send(gw, id, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await h.waitForRows(id, 1))[0]).toMatchObject({ outcome: 'METHOD_NOT_ALLOWED', method: 'PUT' });
  });

  it('"3. Authenticates the sender (inbound authentication)": 401 AUTH_FAILED', async () => {
    const id = await h.endpoint(account, { inbound_auth: { type: 'BEARER', tokens: [h.seal('t0k3n')] } });
    expect((await send(gw, id, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await send(gw, id, { headers: { authorization: 'Bearer t0k3n' } })).status).toBe(202);
    expect((await h.waitForRows(id, 2)).map((r) => r.outcome).sort()).toEqual(['ACCEPTED', 'AUTH_FAILED']);
  });

  it('"4. Reads the payload according to the endpoint payload format": a form body is read as form', async () => {
    const id = await h.endpoint(account, { payload_format: 'form', field_rules: [{ path: 'name', required: true }] });
    expect(
      (await send(gw, id, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Ada' }))
        .status,
    ).toBe(202);
    expect(
      (await send(gw, id, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'other=1' }))
        .status,
    ).toBe(400);
  });

  it('"5. Validates required headers, body filters and field validation rules"', async () => {
    const id = await h.endpoint(account, {
      required_headers: [{ name: 'X-Team' }],
      body_filters: [{ kind: 'contains', value: 'order' }],
      field_rules: [{ path: 'id', type: 'integer' }],
    });
    const team = { 'x-team': 'a' };
    expect((await send(gw, id, { body: '{"order":1,"id":1}' })).json.code).toBe('required_header_missing');
    expect((await send(gw, id, { headers: team, body: '{"id":1}' })).json.code).toBe('request_body_filter_failed');
    expect((await send(gw, id, { headers: team, body: '{"order":1,"id":"x"}' })).json.code).toBe(
      'field_validation_failed',
    );
    expect((await send(gw, id, { headers: team, body: '{"order":1,"id":1}' })).status).toBe(202);
  });

  it('"6. Applies rate limits and the monthly accepted-event quota": 429', async () => {
    const limited = await h.endpoint(account, { rate_limit_per_minute: 1 });
    expect((await send(gw, limited)).status).toBe(202);
    expect((await send(gw, limited)).status).toBe(429);
    const small = await h.account({ monthly_accepted_events: 1 });
    const id = await h.endpoint(small);
    expect((await send(gw, id)).status).toBe(202);
    expect((await send(gw, id)).json.code).toBe('quota_exceeded');
  });

  it('"7. Accepts the event for delivery and answers HTTP 202"', async () => {
    const id = await h.endpoint(account);
    const res = await send(gw, id, { body: '{"hello":"relay"}' });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ message: 'Payload received' });
  });

  it('"8. Delivers the payload to every target attached to the endpoint under Outputs": one delivery per target, the payload unchanged', async () => {
    const id = await h.endpoint(account, {}, 3);
    expect((await send(gw, id, { body: '{"n": 1}' })).status).toBe(202);
    const deliveries = await eventually(async () => h.deliveriesOf(id).length === 3 && h.deliveriesOf(id));
    expect(new Set(deliveries.map((d) => d.target_id)).size).toBe(3);
    expect(deliveries.map(deliveredBody)).toEqual(['{"n": 1}', '{"n": 1}', '{"n": 1}']);
  });

  it('"9. Records the request in the activity log (Request activity)": time, endpoint, outcome, method, source IP', async () => {
    const id = await h.endpoint(account);
    await send(gw, id);
    const [row] = await h.waitForRows(id, 1);
    expect(row).toMatchObject({
      outcome: 'ACCEPTED',
      endpoint_id: id,
      account_id: account,
      method: 'POST',
      source_ip: '127.0.0.1',
      target_count: 1,
    });
    expect(Date.now() - Date.parse(row!.received_at)).toBeLessThan(60_000);
  });

  it("the steps run in the spec order: a request failing several steps gets the earliest step's outcome", async () => {
    const id = await h.endpoint(account, {
      methods: ['POST'],
      ip_access: { allow: ['10.0.0.0/8'], deny: [] },
      inbound_auth: { type: 'API_KEY', header: 'X-Key', keys: [h.seal('k')] },
      rate_limit_per_minute: 1,
    });
    // wrong method, blocked IP (127.0.0.1 is not allowed), no key, bad body: the method decides
    expect((await send(gw, id, { method: 'PATCH', body: '{' })).json.code).toBe('method_not_allowed');
    // blocked IP, no key, bad body: the IP list decides, before authentication
    expect((await send(gw, id, { body: '{' })).json.code).toBe('ip_blocked');
    await h.update(id, { ip_access: { allow: [], deny: [] } });
    // no key, bad body: authentication decides, before the payload
    expect((await send(gw, id, { body: '{' })).json.code).toBe('auth_failed');
    // bad body with a key: the payload; the rate limit has not been touched by any of these
    expect((await send(gw, id, { headers: { 'x-key': 'k' }, body: '{' })).json.code).toBe('malformed_payload');
    expect((await send(gw, id, { headers: { 'x-key': 'k' } })).status).toBe(202);
    expect((await h.waitForRows(id, 5)).map((r) => r.outcome)).toEqual([
      'METHOD_NOT_ALLOWED',
      'IP_BLOCKED',
      'AUTH_FAILED',
      'MALFORMED_PAYLOAD',
      'ACCEPTED',
    ]);
  });
});
