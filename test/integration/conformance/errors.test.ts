import { eventually, infra } from '../../support/infra';
import { TcpProxy } from '../../support/tcp-proxy';
import { FakeCaptchaVerifier } from '../ingest/fake-captcha';
import { IngestHarness } from '../ingest/harness';
import type { GatewayInstance } from '../ingest/harness';
import { send } from '../ingest/http';
import type { Answer } from '../ingest/http';

/** Spec "Errors": one test per row of the table, plus the error body shape and the client rule. */
let h: IngestHarness;
let gw: GatewayInstance;
let account: string;

beforeAll(async () => {
  h = await IngestHarness.start('conf-errors');
  gw = await h.gateway();
  account = await h.account({ payload_limit_bytes: 64 });
});

afterAll(async () => {
  await h?.stop();
});

/** Every error answer has one JSON shape: exactly `code` and `message`. */
function expectError(res: Answer, status: number, code: string, retryAfter: string | null = null): void {
  expect([res.status, res.json?.code, res.headers.get('retry-after')]).toEqual([status, code, retryAfter]);
  expect(Object.keys(res.json).sort()).toEqual(['code', 'message']);
  expect(typeof res.json.message).toBe('string');
}

const b64 = (json: string): string => Buffer.from(json).toString('base64');

describe('Errors', () => {
  it('"400 (content validation): required header missing; body filter fails (REQUEST_BODY_FILTER_FAILED); field validation fails (null required field, regex mismatch)"', async () => {
    const id = await h.endpoint(account, {
      required_headers: [{ name: 'X-Team' }],
      body_filters: [{ kind: 'not_contains', value: 'test' }],
      field_rules: [
        { path: 'id', required: true },
        { path: 'sku', pattern: '^[A-Z]{3}$' },
      ],
    });
    expectError(await send(gw, id, { body: '{"id":1}' }), 400, 'required_header_missing');
    expectError(
      await send(gw, id, { headers: { 'x-team': 'a' }, body: '{"id":"test"}' }),
      400,
      'request_body_filter_failed',
    );
    expectError(
      await send(gw, id, { headers: { 'x-team': 'a' }, body: '{"id":null}' }),
      400,
      'field_validation_failed',
    );
    expectError(
      await send(gw, id, { headers: { 'x-team': 'a' }, body: '{"id":1,"sku":"abc"}' }),
      400,
      'field_validation_failed',
    );
    expect((await h.waitForRows(id, 4)).map((r) => r.outcome)).toEqual([
      'REQUIRED_HEADER_MISSING',
      'REQUEST_BODY_FILTER_FAILED',
      'FIELD_VALIDATION_FAILED',
      'FIELD_VALIDATION_FAILED',
    ]);
  });

  it('"400 MALFORMED_QUERY_PARAM: required Base64 parameter missing; invalid Base64; decoded value not valid JSON; more than 64 query parameter pairs"', async () => {
    const id = await h.endpoint(account, {
      payload_format: 'query_base64_json',
      methods: ['GET'],
      query_param_name: 'p',
    });
    const big = await h.account();
    const many = await h.endpoint(big, { payload_format: 'query', methods: ['GET'] });
    expectError(await send(gw, id, { method: 'GET', query: 'q=1' }), 400, 'malformed_query_param');
    expectError(await send(gw, id, { method: 'GET', query: 'p=a$b' }), 400, 'malformed_query_param');
    expectError(await send(gw, id, { method: 'GET', query: `p=${b64('{nope')}` }), 400, 'malformed_query_param');
    expectError(
      await send(gw, many, { method: 'GET', query: Array.from({ length: 65 }, (_, i) => `k${i}=1`).join('&') }),
      400,
      'malformed_query_param',
    );
    expect((await h.waitForRows(id, 3)).every((r) => r.outcome === 'MALFORMED_QUERY_PARAM')).toBe(true);
  });

  it('"401 AUTH_FAILED: inbound credentials missing or wrong"', async () => {
    const id = await h.endpoint(account, { inbound_auth: { type: 'BEARER', tokens: [h.seal('t')] } });
    expectError(await send(gw, id), 401, 'auth_failed');
    expectError(await send(gw, id, { headers: { authorization: 'Bearer x' } }), 401, 'auth_failed');
  });

  it('"404 or no response (none; no activity row): endpoint disabled"', async () => {
    const id = await h.endpoint(account, { enabled: false });
    expectError(await send(gw, id), 404, 'endpoint_not_found');
    expectError(await send(gw, 'ep_unknown'), 404, 'endpoint_not_found');
    await h.expectNoRows(id, gw);
  });

  it('"405 METHOD_NOT_ALLOWED: method not accepted by the endpoint"', async () => {
    const id = await h.endpoint(account, { methods: ['POST'] });
    expectError(await send(gw, id, { method: 'DELETE' }), 405, 'method_not_allowed');
    expect((await h.waitForRows(id, 1))[0]!.outcome).toBe('METHOD_NOT_ALLOWED');
  });

  it('"413 PAYLOAD_TOO_LARGE: body, Base64 JSON, or query string larger than the plan payload limit" (64 bytes here)', async () => {
    const body = await h.endpoint(account);
    const base64 = await h.endpoint(account, {
      payload_format: 'query_base64_json',
      methods: ['GET'],
      query_param_name: 'p',
    });
    const query = await h.endpoint(account, { payload_format: 'query', methods: ['GET'] });
    expectError(await send(gw, body, { body: JSON.stringify({ s: 'x'.repeat(60) }) }), 413, 'payload_too_large');
    expectError(
      await send(gw, base64, { method: 'GET', query: `p=${b64(JSON.stringify({ s: 'x'.repeat(60) }))}` }),
      413,
      'payload_too_large',
    );
    expectError(await send(gw, query, { method: 'GET', query: `s=${'x'.repeat(70)}` }), 413, 'payload_too_large');
    for (const id of [body, base64, query]) expect((await h.waitForRows(id, 1))[0]!.outcome).toBe('PAYLOAD_TOO_LARGE');
  });

  it('"415: Content-Type does not match the endpoint payload format"', async () => {
    const id = await h.endpoint(account, { payload_format: 'json' });
    expectError(
      await send(gw, id, { headers: { 'content-type': 'text/plain' }, body: '{}' }),
      415,
      'unsupported_media_type',
    );
  });

  it('"429: monthly accepted-event quota used up (Retry-After 60), or per-endpoint per-minute rate limit exceeded (seconds)"', async () => {
    const small = await h.account({ monthly_accepted_events: 1 });
    const quota = await h.endpoint(small);
    await send(gw, quota);
    expectError(await send(gw, quota), 429, 'quota_exceeded', '60');
    const rate = await h.endpoint(account, { rate_limit_per_minute: 1 });
    await send(gw, rate);
    const limited = await send(gw, rate);
    expect([limited.status, limited.json.code]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await h.waitForRows(quota, 2)).map((r) => r.outcome)).toEqual(['ACCEPTED', 'QUOTA_EXCEEDED']);
    expect((await h.waitForRows(rate, 2)).map((r) => r.outcome)).toEqual(['ACCEPTED', 'RATE_LIMITED']);
  });

  it('"503 endpoint_unavailable: endpoint paused or otherwise cannot accept events; no activity row for a paused endpoint; the cause is not revealed publicly" (Retry-After 60)', async () => {
    const manual = await h.endpoint(account, { paused: true });
    const window = await h.endpoint(account, {
      maintenance_windows: [
        {
          starts_at: new Date(Date.now() - 60_000).toISOString(),
          ends_at: new Date(Date.now() + 600_000).toISOString(),
        },
      ],
    });
    const a = await send(gw, manual);
    const b = await send(gw, window);
    expectError(a, 503, 'endpoint_unavailable', '60');
    expect(b.text).toBe(a.text);
    await h.expectNoRows(manual, gw);
    await h.expectNoRows(window, gw);
  });

  it('"503 endpoint_unavailable … otherwise cannot accept events": a captcha verifier outage (fails closed, with a CAPTCHA_FAILED row)', async () => {
    const verifier = await FakeCaptchaVerifier.start();
    try {
      verifier.mode = 'error';
      const id = await h.endpoint(account, {
        captcha: { provider: 'hcaptcha', secret: h.seal(verifier.secret), verify_url: verifier.url() },
      });
      expectError(await send(gw, id, { body: '{"h-captcha-response":"t"}' }), 503, 'endpoint_unavailable', '60');
      expect((await h.waitForRows(id, 1))[0]).toMatchObject({
        outcome: 'CAPTCHA_FAILED',
        reason: expect.stringMatching(/unavailable/),
      });
      expect(await gw.metrics.captchaUnavailable.get()).toMatchObject({ values: [{ value: 1 }] });
    } finally {
      await verifier.close();
    }
  });

  it('"503 delivery_queue_unavailable: acceptance not completed because delivery processing is unavailable; activity records DELIVERY_QUEUE_UNAVAILABLE" (Retry-After 5), and the quota unit is given back', async () => {
    const broker = new URL(infra.rabbitmqUrl);
    const proxy = new TcpProxy(broker.hostname, Number(broker.port || 5672));
    await proxy.start();
    const viaProxy = new URL(infra.rabbitmqUrl);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const fragile = await h.gateway({ rabbitmqUrl: viaProxy.toString() });
    try {
      const acc = await h.account();
      const id = await h.endpoint(acc);
      expect((await send(fragile, id)).status).toBe(202);
      await proxy.cut();
      expectError(await send(fragile, id), 503, 'delivery_queue_unavailable', '5');
      // the first request's ACCEPTED row may be spooled beside it: its batch can still be
      // unconfirmed when the connection is cut (it is re-published later, not lost)
      const spooled = await eventually(async () => {
        const rows = (await h.redis.lrange(`${h.namespace}:activity-spool`, 0, -1)).map((r) => JSON.parse(r));
        return rows.find((r) => r.endpoint_id === id && r.outcome !== 'ACCEPTED');
      });
      expect(spooled.outcome).toBe('DELIVERY_QUEUE_UNAVAILABLE');
      const month = new Date().toISOString().slice(0, 7);
      expect(await h.redis.get(`${h.namespace}:quota:${acc}:${month}`)).toBe('1');
      await proxy.restore();
      await eventually(async () => (await send(fragile, id)).status === 202, 15000, 'the gateway to reconnect');
    } finally {
      await proxy.stop();
    }
  });

  it('"IP_BLOCKED is an outcome label in the log" — answered 403 (the spec leaves the status open)', async () => {
    const id = await h.endpoint(account, { ip_access: { allow: [], deny: ['127.0.0.0/8'] } });
    expectError(await send(gw, id), 403, 'ip_blocked');
    expect((await h.waitForRows(id, 1))[0]).toMatchObject({ outcome: 'IP_BLOCKED', source_ip: '127.0.0.1' });
  });

  it('"Client rule: on 429 or 503 wait for Retry-After when present, then resend the original request"', async () => {
    let now = Date.parse('2025-05-05T10:00:30Z');
    const timed = await h.gateway({ clock: () => new Date(now) });
    const id = await h.endpoint(account, { rate_limit_per_minute: 2 });
    expect((await send(timed, id)).status).toBe(202);
    expect((await send(timed, id)).status).toBe(202);
    const limited = await send(timed, id);
    expect(limited.status).toBe(429);
    now += (Number(limited.headers.get('retry-after')) - 1) * 1000;
    expect((await send(timed, id)).status).toBe(429);
    now += 1000;
    expect((await send(timed, id)).status).toBe(202);
  });
});
