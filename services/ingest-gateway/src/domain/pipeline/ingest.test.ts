import { createHmac } from 'node:crypto';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { compileOrderKey, compileRouting } from '@relay/endpoints';
import { ingest } from './ingest';
import type { IngestAnswer } from './ingest';
import { body, fakePorts, request, view } from './test-helpers';

function rejected(answer: IngestAnswer) {
  if (answer.accepted) throw new Error('expected a rejection');
  return answer.rejection;
}

describe('ingest pipeline: the spec steps in order (What the service does 1–7)', () => {
  it('accepts a valid request: deliveries published, then the ACCEPTED row', async () => {
    const f = fakePorts(view({}, 2));
    const answer = await ingest(f.ports, request(), body('{"a":1}'));
    expect(answer).toEqual({ accepted: true, targetCount: 2, accountId: 'acc_1', eventId: 'evt_1' });
    expect(f.published).toHaveLength(2);
    expect(f.rows.map((r) => [r.outcome, r.target_count])).toEqual([['ACCEPTED', 2]]);
  });

  it('with no target, the ACCEPTED row itself is published with a confirm', async () => {
    const f = fakePorts(view({}, 0));
    expect(await ingest(f.ports, request(), body('{}'))).toMatchObject({ accepted: true, targetCount: 0 });
    expect(f.rows.map((r) => r.outcome)).toEqual(['ACCEPTED']);
  });

  it('routing: only the targets whose rules the payload meets get a message; the row names the others as not routed', async () => {
    const v = view({}, 3);
    v.targets[1]!.route = compileRouting({
      match: 'all',
      rules: [{ kind: 'equals', path: 'type', value: 'order.paid' }],
    });
    v.targets[2]!.route = compileRouting({ match: 'any', rules: [{ kind: 'gt', path: 'amount', value: 100 }] });
    const f = fakePorts(v);
    expect(await ingest(f.ports, request(), body('{"type":"order.paid","amount":5}'))).toMatchObject({
      accepted: true,
      targetCount: 2,
    });
    expect(f.published.map((p) => (p as { message: DeliveryMessageV1 }).message.target_id)).toEqual(['tg_0', 'tg_1']);
    expect(f.rows).toEqual([expect.objectContaining({ outcome: 'ACCEPTED', target_count: 2, not_routed: ['tg_2'] })]);
  });

  it("ordering: an ordered target's delivery carries the event's key (docs/ordering.md); without one, it goes unordered", async () => {
    const v = view({}, 3);
    v.targets[0]!.orderKey = compileOrderKey({ from: 'path', path: 'order.id' });
    v.targets[1]!.orderKey = compileOrderKey({ from: 'header', header: 'x-order-key' });
    const f = fakePorts(v);
    const req = request({ headers: { ...request().headers, 'x-order-key': 'H-1' } });
    expect(await ingest(f.ports, req, body('{"order":{"id":7}}'))).toMatchObject({ accepted: true, targetCount: 3 });
    expect(f.published.map((p) => (p as { message: DeliveryMessageV1 }).message.order_key)).toEqual([
      '7',
      'H-1',
      undefined,
    ]);
    const g = fakePorts(v);
    expect(await ingest(g.ports, request(), body('{"order":{}}'))).toMatchObject({ accepted: true, targetCount: 3 });
    expect(g.published.map((p) => (p as { message: DeliveryMessageV1 }).message.order_key)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('routing: an event no target is routed to is accepted, its row durable, with every target not routed', async () => {
    const v = view({}, 1);
    v.targets[0]!.route = compileRouting({ match: 'all', rules: [{ kind: 'exists', path: 'never' }] });
    const f = fakePorts(v);
    expect(await ingest(f.ports, request(), body('{}'))).toMatchObject({ accepted: true, targetCount: 0 });
    expect(f.published).toEqual([]);
    expect(f.rows).toEqual([expect.objectContaining({ outcome: 'ACCEPTED', target_count: 0, not_routed: ['tg_0'] })]);
  });

  it('a row without routing carries no not_routed field', async () => {
    const f = fakePorts(view({}, 1));
    await ingest(f.ports, request(), body('{}'));
    expect(f.rows[0]).not.toHaveProperty('not_routed');
  });

  it.each([
    ['unknown endpoint → 404, no row', null, 404, 'endpoint_not_found'],
    ['disabled endpoint → 404, no row', view({ enabled: false }), 404, 'endpoint_not_found'],
    ['manual pause → 503 endpoint_unavailable, no row', view({ paused: true }), 503, 'endpoint_unavailable'],
    [
      'active maintenance window → 503, no row',
      view({ maintenance_windows: [{ starts_at: '2025-03-10T11:00:00Z', ends_at: '2025-03-10T13:00:00Z' }] }),
      503,
      'endpoint_unavailable',
    ],
    ['settings that could not be prepared → 503, no row', { ...view(), settings: null }, 503, 'endpoint_unavailable'],
  ])('%s', async (_name, v, status, code) => {
    const f = fakePorts(v);
    let bodyRead = false;
    const r = rejected(
      await ingest(f.ports, request(), { read: async () => ((bodyRead = true), Buffer.from('{}')), timeoutMs: 15000 }),
    );
    expect([r.status, r.code, r.outcome]).toEqual([status, code, null]);
    if (status === 503) expect(r.retryAfterSeconds).toBe(60);
    expect(f.rows).toEqual([]);
    expect(bodyRead).toBe(false);
  });

  it('a maintenance window resumes by itself at its end', async () => {
    const f = fakePorts(
      view({ maintenance_windows: [{ starts_at: '2025-03-10T11:00:00Z', ends_at: '2025-03-10T12:00:00Z' }] }),
    );
    expect(await ingest(f.ports, request({ receivedAt: new Date('2025-03-10T11:59:59Z') }), body('{}'))).toMatchObject({
      accepted: false,
    });
    expect(await ingest(f.ports, request({ receivedAt: new Date('2025-03-10T12:00:00Z') }), body('{}'))).toMatchObject({
      accepted: true,
    });
  });

  // Each row breaks its own step and every later one: the earliest step decides.
  const secret = 'sealed:s3cret';
  const all = view({
    methods: ['POST'],
    ip_access: { allow: [], deny: ['198.51.100.0/24'] },
    inbound_auth: { type: 'BEARER', tokens: [secret] },
    required_headers: [{ name: 'X-Team', value: 'blue' }],
    field_rules: [{ path: 'id', required: true }],
    captcha: { provider: 'hcaptcha', secret: 'sealed:cap' },
  });
  const good = { 'content-type': 'application/json', authorization: 'Bearer s3cret', 'x-team': 'blue' };
  const goodBody = '{"id":1,"h-captcha-response":"tok"}';
  it.each([
    ['method before IP lists', { method: 'PUT', sourceIp: '198.51.100.1' }, goodBody, 405, 'METHOD_NOT_ALLOWED'],
    ['IP lists before inbound auth', { sourceIp: '198.51.100.1', headers: {} }, goodBody, 403, 'IP_BLOCKED'],
    ['inbound auth before the payload', { headers: { 'content-type': 'text/plain' } }, 'x', 401, 'AUTH_FAILED'],
    [
      'payload before required headers',
      { headers: { ...good, 'content-type': 'text/plain', 'x-team': 'red' } },
      'x',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['malformed payload', { headers: good }, '{', 400, 'MALFORMED_PAYLOAD'],
    [
      'required headers before field validation',
      { headers: { ...good, 'x-team': 'red' } },
      '{}',
      400,
      'REQUIRED_HEADER_MISSING',
    ],
    ['field validation before captcha', { headers: good }, '{"id":null}', 400, 'FIELD_VALIDATION_FAILED'],
    ['captcha token missing', { headers: good }, '{"id":1}', 400, 'CAPTCHA_FAILED'],
  ] as const)('%s', async (_name, over, text, status, outcome) => {
    const f = fakePorts(all);
    const r = rejected(await ingest(f.ports, request(over as never), body(text)));
    expect([r.status, r.outcome, r.code]).toEqual([status, outcome, outcome.toLowerCase()]);
    expect(f.rows.map((row) => row.outcome)).toEqual([outcome]);
    expect(f.calls.admit).toEqual([]);
  });

  it('the row of a 401 says why; the sender is not told', async () => {
    const f = fakePorts(all);
    const r = rejected(
      await ingest(f.ports, request({ headers: { ...good, authorization: 'Bearer nope' } }), body(goodBody)),
    );
    expect(r.message).not.toMatch(/bearer/i);
    expect(f.rows[0]?.reason).toBe('wrong bearer token');
  });

  it('captcha refused by the provider → 403 CAPTCHA_FAILED; verifier outage → 503 endpoint_unavailable with a CAPTCHA_FAILED row', async () => {
    const refused = fakePorts(all, { captcha: 'rejected' });
    expect(rejected(await ingest(refused.ports, request({ headers: good }), body(goodBody)))).toMatchObject({
      status: 403,
      outcome: 'CAPTCHA_FAILED',
    });
    const down = fakePorts(all, { captcha: 'unavailable' });
    const r = rejected(await ingest(down.ports, request({ headers: good }), body(goodBody)));
    expect([r.status, r.code, r.retryAfterSeconds, r.outcome]).toEqual([
      503,
      'endpoint_unavailable',
      60,
      'CAPTCHA_FAILED',
    ]);
    expect(down.rows[0]?.reason).toMatch(/captcha verifier unavailable/);
  });

  it('limits run last: 429 RATE_LIMITED with the limiter Retry-After, 429 QUOTA_EXCEEDED with 60', async () => {
    const rate = fakePorts(view(), { limit: { admitted: false, limit: 'rate', retryAfterSeconds: 7 } });
    expect(rejected(await ingest(rate.ports, request(), body('{}')))).toMatchObject({
      status: 429,
      code: 'rate_limited',
      retryAfterSeconds: 7,
      outcome: 'RATE_LIMITED',
    });
    const quota = fakePorts(view(), { limit: { admitted: false, limit: 'quota' } });
    expect(rejected(await ingest(quota.ports, request(), body('{}')))).toMatchObject({
      status: 429,
      code: 'quota_exceeded',
      retryAfterSeconds: 60,
      outcome: 'QUOTA_EXCEEDED',
    });
    expect(quota.rows.map((r) => r.outcome)).toEqual(['QUOTA_EXCEEDED']);
  });

  it('passes the endpoint rate limit (default 600) and the plan quota to the limiter', async () => {
    const f = fakePorts(view());
    await ingest(f.ports, request(), body('{}'));
    expect(f.calls.admit[0]).toMatchObject({
      endpointId: 'ep_1',
      accountId: 'acc_1',
      ratePerMinute: 600,
      monthlyQuota: 1000,
    });
  });

  it('publish failure → 503 delivery_queue_unavailable, Retry-After 5, the quota unit given back', async () => {
    const f = fakePorts(view(), { publishFails: true });
    const r = rejected(await ingest(f.ports, request(), body('{}')));
    expect([r.status, r.code, r.retryAfterSeconds, r.outcome]).toEqual([
      503,
      'delivery_queue_unavailable',
      5,
      'DELIVERY_QUEUE_UNAVAILABLE',
    ]);
    expect(f.calls.refund).toBe(1);
  });

  it('a body over the read ceiling → 413 PAYLOAD_TOO_LARGE before authentication', async () => {
    const f = fakePorts(all);
    const r = rejected(await ingest(f.ports, request(), body('too_large')));
    expect([r.status, r.outcome]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('a body not received within BODY_TIMEOUT_MS → 408 request_timeout with a REQUEST_TIMEOUT row', async () => {
    const f = fakePorts(all);
    const r = rejected(await ingest(f.ports, request(), body('timed_out')));
    expect([r.status, r.code, r.outcome]).toEqual([408, 'request_timeout', 'REQUEST_TIMEOUT']);
    expect(f.rows.map((row) => row.outcome)).toEqual(['REQUEST_TIMEOUT']);
  });

  it('a source address that is not an IP (an X-Forwarded-For entry from a trusted hop) → 400 malformed_header, the row keeps 64 characters of it', async () => {
    const f = fakePorts(view());
    const forwarded = `not-an-ip-${'x'.repeat(80)}`;
    const r = rejected(await ingest(f.ports, request({ sourceIp: forwarded }), body('{}')));
    expect([r.status, r.code, r.outcome]).toEqual([400, 'malformed_header', 'MALFORMED_HEADER']);
    expect(f.rows.map((row) => [row.outcome, row.source_ip])).toEqual([['MALFORMED_HEADER', forwarded.slice(0, 64)]]);
    expect(f.published).toEqual([]);
  });

  it('strips the credential headers of rule 5 before publishing', async () => {
    const hmac = view({
      inbound_auth: { type: 'HMAC', preset: 'slack', secrets: ['sealed:k'] },
      required_headers: [{ name: 'X-Team' }],
    });
    const f = fakePorts(hmac);
    const ts = String(Math.floor(new Date('2025-03-10T12:00:00Z').getTime() / 1000));
    const sig = `v0=${createHmac('sha256', 'k').update(`v0:${ts}:{}`).digest('hex')}`;
    const headers = {
      'content-type': 'application/json',
      'x-slack-signature': sig,
      'x-slack-request-timestamp': ts,
      'x-team': 'a',
      'x-keep': '1',
    };
    expect(await ingest(f.ports, request({ headers }), body('{}'))).toMatchObject({ accepted: true });
    const message = (f.published[0] as { message: DeliveryMessageV1 }).message;
    expect(message.request.headers).toEqual({ 'x-keep': '1' });
  });
});
