import { ingest } from './ingest';
import type { IngestAnswer } from './ingest';
import { body, fakePorts, request, view } from './test-helpers';

function rejected(answer: IngestAnswer) {
  if (answer.accepted) throw new Error('expected a rejection');
  return answer.rejection;
}

// An endpoint whose every sender-facing check would refuse the owner: blocked IP, bearer auth, captcha.
const guarded = () =>
  view({
    ip_access: { allow: [], deny: ['203.0.113.0/24'] },
    inbound_auth: { type: 'BEARER', tokens: ['sealed:s3cret'] },
    captcha: { provider: 'hcaptcha', secret: 'sealed:cap' },
    field_rules: [{ path: 'id', required: true }],
  });

describe('test requests (POST /v1/endpoints/:id/test): the same pipeline, for the owner', () => {
  it('skip IP lists, inbound auth and captcha, and count against no rate limit or quota; the row is a test row', async () => {
    const f = fakePorts(guarded(), { limit: { admitted: false, limit: 'quota' } });
    const answer = await ingest(f.ports, request({ test: true }), body('{"id":1}'));
    expect(answer).toMatchObject({ accepted: true, targetCount: 1 });
    expect(f.calls.admit).toEqual([]);
    expect(f.calls.captcha).toBe(0);
    expect(f.rows.map((r) => [r.outcome, r.test])).toEqual([['ACCEPTED', true]]);
  });

  it('keep the payload rules: field validation, format and the plan payload limit, with a test row', async () => {
    const f = fakePorts(guarded());
    expect(rejected(await ingest(f.ports, request({ test: true }), body('{"other":1}'))).outcome).toBe(
      'FIELD_VALIDATION_FAILED',
    );
    expect(rejected(await ingest(f.ports, request({ test: true }), body('not json'))).outcome).toBe(
      'MALFORMED_PAYLOAD',
    );
    expect(rejected(await ingest(f.ports, request({ test: true }), body(`{"id":"${'x'.repeat(2000)}"}`))).outcome).toBe(
      'PAYLOAD_TOO_LARGE',
    );
    expect(f.rows.map((r) => r.test)).toEqual([true, true, true]);
  });

  it("keep the endpoint's state and methods: paused is refused without a row, a method not configured with one", async () => {
    const paused = fakePorts(view({ paused: true }));
    expect(rejected(await ingest(paused.ports, request({ test: true }), body('{}'))).code).toBe('endpoint_unavailable');
    expect(paused.rows).toEqual([]);
    const f = fakePorts(view());
    expect(rejected(await ingest(f.ports, request({ test: true, method: 'PUT' }), body('{}'))).outcome).toBe(
      'METHOD_NOT_ALLOWED',
    );
  });

  it("a sender's request is still checked by every step", async () => {
    const f = fakePorts(guarded());
    expect(rejected(await ingest(f.ports, request(), body('{"id":1}'))).outcome).toBe('IP_BLOCKED');
  });
});

describe('stored payloads (resend): an accepted event keeps what its deliveries carried', () => {
  it('records the forwarded request and the payload of each accepted event, and nothing for a refusal before authentication', async () => {
    const f = fakePorts(view({}, 2));
    await ingest(
      f.ports,
      request({ headers: { 'content-type': 'application/json', 'x-team': 'blue' }, rawQuery: 'a=1' }),
      body('{"a":1}'),
    );
    await ingest(f.ports, request({ eventId: 'evt_2', method: 'PUT' }), body('{"a":1}'));
    expect(f.payloads).toHaveLength(1);
    expect(f.payloads[0]).toMatchObject({
      event_id: 'evt_1',
      account_id: 'acc_1',
      endpoint_id: 'ep_1',
      request: { method: 'POST', query: 'a=1', headers: { 'x-team': 'blue' } },
    });
    expect(Buffer.from(f.payloads[0]!.payload.body_base64, 'base64').toString()).toBe('{"a":1}');
  });
});

describe('Idempotency-Key (docs/ingest.md): a duplicate is answered as the first was', () => {
  const withKey = (eventId: string, key = 'order-42') =>
    request({ eventId, headers: { 'content-type': 'application/json', 'idempotency-key': key } });

  it('the second request with a key gets the first event id, publishes nothing, counts nothing, writes no row', async () => {
    const f = fakePorts(view({}, 1));
    expect(await ingest(f.ports, withKey('evt_1'), body('{}'))).toMatchObject({ accepted: true, eventId: 'evt_1' });
    const again = await ingest(f.ports, withKey('evt_2'), body('{}'));
    expect(again).toEqual({ accepted: true, targetCount: 0, accountId: 'acc_1', eventId: 'evt_1', replayed: true });
    expect(f.published).toHaveLength(1);
    expect(f.calls.admit).toHaveLength(1);
    expect(f.rows).toHaveLength(1);
  });

  it('another key, or no key, is a new event', async () => {
    const f = fakePorts(view({}, 1));
    await ingest(f.ports, withKey('evt_1'), body('{}'));
    expect(await ingest(f.ports, withKey('evt_2', 'order-43'), body('{}'))).toMatchObject({ eventId: 'evt_2' });
    expect(await ingest(f.ports, request({ eventId: 'evt_3' }), body('{}'))).toMatchObject({ eventId: 'evt_3' });
  });

  it('a refused request frees its key: the sender may retry with it (429 and 503 are meant to be retried)', async () => {
    const f = fakePorts(view({}, 1), { limit: { admitted: false, limit: 'rate', retryAfterSeconds: 1 } });
    expect(rejected(await ingest(f.ports, withKey('evt_1'), body('{}'))).outcome).toBe('RATE_LIMITED');
    expect(f.keys.size).toBe(0);
    const down = fakePorts(view({}, 1), { publishFails: true });
    expect(rejected(await ingest(down.ports, withKey('evt_1'), body('{}'))).code).toBe('delivery_queue_unavailable');
    expect(down.keys.size).toBe(0);
  });

  it('a request whose key is held by one still in flight gets 409 idempotency_key_in_use, Retry-After 1, no row', async () => {
    const f = fakePorts(view({}, 1));
    f.keys.set('ep_1|order-42', 'p:evt_0');
    const r = rejected(await ingest(f.ports, withKey('evt_1'), body('{}')));
    expect([r.status, r.code, r.outcome, r.retryAfterSeconds]).toEqual([409, 'idempotency_key_in_use', null, 1]);
    expect(f.rows).toEqual([]);
  });

  it('the key is checked after authentication: without credentials a sender can neither take nor probe one', async () => {
    const f = fakePorts(view({ inbound_auth: { type: 'BEARER', tokens: ['sealed:s3cret'] } }, 1));
    expect(rejected(await ingest(f.ports, withKey('evt_1'), body('{}'))).outcome).toBe('AUTH_FAILED');
    expect(f.keys.size).toBe(0);
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['not printable ASCII', 'clé'],
  ])('a key that is %s is 400 MALFORMED_HEADER with a row', async (_n, key) => {
    const f = fakePorts(view({}, 1));
    const r = rejected(await ingest(f.ports, withKey('evt_1', key), body('{}')));
    expect([r.status, r.outcome]).toEqual([400, 'MALFORMED_HEADER']);
    expect(f.rows.map((row) => row.outcome)).toEqual(['MALFORMED_HEADER']);
  });
});
