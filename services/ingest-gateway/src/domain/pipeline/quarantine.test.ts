import { ingest } from './ingest';
import type { IngestAnswer } from './ingest';
import { body, fakePorts, request, view } from './test-helpers';

function rejected(answer: IngestAnswer) {
  if (answer.accepted) throw new Error('expected a rejection');
  return answer.rejection;
}

const bearer = { inbound_auth: { type: 'BEARER' as const, tokens: ['sealed:s3cret'] } };
const signed = (over: Parameters<typeof request>[0] = {}) =>
  request({
    headers: { 'content-type': 'application/json', authorization: 'Bearer s3cret', 'x-team': 'blue' },
    ...over,
  });

describe('quarantine (docs/ingest.md "Quarantine"): a refusal after authentication keeps its request', () => {
  it.each([
    [
      'a body filter',
      { body_filters: [{ kind: 'contains' as const, value: '"paid"' }] },
      '{"state":"open"}',
      'REQUEST_BODY_FILTER_FAILED',
    ],
    ['a field rule', { field_rules: [{ path: 'id', required: true }] }, '{"other":1}', 'FIELD_VALIDATION_FAILED'],
    ['the payload format', {}, 'not json', 'MALFORMED_PAYLOAD'],
    ['the plan payload limit, below the hard cap', {}, `{"id":"${'x'.repeat(2000)}"}`, 'PAYLOAD_TOO_LARGE'],
    ['a required header', { required_headers: [{ name: 'x-shop' }] }, '{}', 'REQUIRED_HEADER_MISSING'],
  ])(
    'refused by %s: the row says kept, the raw request is stored without credentials',
    async (_n, over, text, outcome) => {
      const f = fakePorts(view({ ...bearer, ...over }));
      expect(rejected(await ingest(f.ports, signed(), body(text))).outcome).toBe(outcome);
      expect(f.rows.map((r) => [r.outcome, r.quarantine])).toEqual([[outcome, 'kept']]);
      expect(f.payloads).toHaveLength(1);
      const kept = f.payloads[0]!;
      expect(kept).toMatchObject({ event_id: 'evt_1', account_id: 'acc_1', endpoint_id: 'ep_1' });
      expect(kept.request.headers).toEqual({ 'x-team': 'blue' });
      expect(kept.payload.content_type).toBe('application/json');
      expect(Buffer.from(kept.payload.body_base64, 'base64').toString()).toBe(text);
    },
  );

  it('a refusal before authentication succeeded is never kept: auth, IP lists, method', async () => {
    const f = fakePorts(view({ ...bearer, ip_access: { allow: [], deny: ['198.51.100.0/24'] } }));
    expect(rejected(await ingest(f.ports, request(), body('not json'))).outcome).toBe('AUTH_FAILED');
    expect(rejected(await ingest(f.ports, signed({ sourceIp: '198.51.100.1' }), body('x'))).outcome).toBe('IP_BLOCKED');
    expect(rejected(await ingest(f.ports, signed({ method: 'PUT' }), body('x'))).outcome).toBe('METHOD_NOT_ALLOWED');
    expect(f.rows.map((r) => r.quarantine)).toEqual([undefined, undefined, undefined]);
    expect(f.payloads).toEqual([]);
    expect(f.calls.quarantined).toBe(0);
  });

  it('past the account bound the refusal keeps only its row, marked bound_reached', async () => {
    const f = fakePorts(view({ field_rules: [{ path: 'id', required: true }] }), { quarantinePerHour: 1 });
    await ingest(f.ports, request({ eventId: 'evt_1' }), body('{}'));
    await ingest(f.ports, request({ eventId: 'evt_2' }), body('{}'));
    expect(f.rows.map((r) => [r.event_id, r.quarantine])).toEqual([
      ['evt_1', 'kept'],
      ['evt_2', 'bound_reached'],
    ]);
    expect(f.payloads.map((p) => p.event_id)).toEqual(['evt_1']);
  });

  it("a test request's refusal is the owner's, not a lost event: nothing kept", async () => {
    const f = fakePorts(view({ field_rules: [{ path: 'id', required: true }] }));
    await ingest(f.ports, request({ test: true }), body('{}'));
    expect(f.rows.map((r) => r.quarantine)).toEqual([undefined]);
    expect(f.payloads).toEqual([]);
  });
});

describe('a re-run (rerunOf): the kept request through the steps again, as if just received', () => {
  const guarded = () =>
    view({
      ...bearer,
      ip_access: { allow: [], deny: ['203.0.113.0/24'] },
      captcha: { provider: 'hcaptcha', secret: 'sealed:cap' },
    });

  it('skips IP lists, inbound auth and captcha, counts the limits, and its row links to the original', async () => {
    const f = fakePorts(guarded());
    const answer = await ingest(f.ports, request({ eventId: 'evt_2', rerunOf: 'evt_1' }), body('{"id":1}'));
    expect(answer).toMatchObject({ accepted: true, eventId: 'evt_2', targetCount: 1 });
    expect(f.calls.captcha).toBe(0);
    expect(f.calls.admit).toHaveLength(1);
    expect(f.rows.map((r) => [r.outcome, r.rerun_of, r.test])).toEqual([['ACCEPTED', 'evt_1', false]]);
  });

  it('is refused by the current rules like a sender, and kept again', async () => {
    const f = fakePorts(view({ field_rules: [{ path: 'id', required: true }] }));
    const r = rejected(await ingest(f.ports, request({ eventId: 'evt_2', rerunOf: 'evt_1' }), body('{}')));
    expect(r.outcome).toBe('FIELD_VALIDATION_FAILED');
    expect(f.rows.map((row) => [row.rerun_of, row.quarantine])).toEqual([['evt_1', 'kept']]);
  });

  it('run twice, one event: the second is answered with the first re-run', async () => {
    const f = fakePorts(view());
    await ingest(f.ports, request({ eventId: 'evt_2', rerunOf: 'evt_1' }), body('{}'));
    const again = await ingest(f.ports, request({ eventId: 'evt_3', rerunOf: 'evt_1' }), body('{}'));
    expect(again).toMatchObject({ accepted: true, eventId: 'evt_2', replayed: true });
    expect(f.published).toHaveLength(1);
  });

  it('is refused by a limit like a sender (429), the original still there to re-run later', async () => {
    const f = fakePorts(view(), { limit: { admitted: false, limit: 'rate', retryAfterSeconds: 3 } });
    const r = rejected(await ingest(f.ports, request({ eventId: 'evt_2', rerunOf: 'evt_1' }), body('{}')));
    expect([r.status, r.code]).toEqual([429, 'rate_limited']);
    expect(f.keys.size).toBe(0);
  });
});
