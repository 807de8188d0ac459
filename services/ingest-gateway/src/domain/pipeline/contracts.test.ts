import { createHmac } from 'node:crypto';
import type { PayloadContracts } from '@relay/endpoints';
import { ingest } from './ingest';
import type { IngestAnswer } from './ingest';
import { body, fakePorts, fakeRulePool, request, view } from './test-helpers';

function rejected(answer: IngestAnswer) {
  if (answer.accepted) throw new Error('expected a rejection');
  return answer.rejection;
}

const order = JSON.stringify({
  type: 'object',
  required: ['id', 'amount'],
  properties: { id: { type: 'string' }, amount: { type: 'integer' } },
});
const contracts = (mode: PayloadContracts['mode'], schemas = [{ event_type: 'order.created', schema: order }]) => ({
  event_type: { from: 'path' as const, path: 'type' },
  mode,
  schemas,
});

describe('ingest pipeline: payload contracts (docs/contracts.md)', () => {
  it('refuse: 400 contract_violation listing what failed, the row CONTRACT_VIOLATION, kept in quarantine', async () => {
    const f = fakePorts(view({ contracts: contracts('refuse') }));
    const r = rejected(await ingest(f.ports, request(), body('{"type":"order.created","id":7}')));
    expect([r.status, r.code, r.outcome]).toEqual([400, 'contract_violation', 'CONTRACT_VIOLATION']);
    expect(r.errors).toEqual([
      { path: '/amount', message: 'is required' },
      { path: '/id', message: 'must be string' },
    ]);
    expect(r.message).toBe(
      'The payload does not match the endpoint\'s contract for event type "order.created" (schema "order.created"); see errors.',
    );
    expect(f.rows).toEqual([
      expect.objectContaining({
        outcome: 'CONTRACT_VIOLATION',
        reason: 'schema order.created: /amount is required; /id must be string',
        quarantine: 'kept',
      }),
    ]);
    expect(f.published).toEqual([]);
  });

  it('a payload that meets its schema, or whose type has none, is accepted unmarked', async () => {
    const f = fakePorts(view({ contracts: contracts('refuse') }));
    await ingest(f.ports, request(), body('{"type":"order.created","id":"o","amount":1}'));
    await ingest(f.ports, request({ eventId: 'evt_2' }), body('{"type":"refund"}'));
    expect(f.rows.map((r) => [r.outcome, r.contract_violation])).toEqual([
      ['ACCEPTED', undefined],
      ['ACCEPTED', undefined],
    ]);
  });

  it('mark: accepted and delivered, the row carries the violation summary', async () => {
    const f = fakePorts(view({ contracts: contracts('mark') }));
    expect(await ingest(f.ports, request(), body('{"type":"order.created","id":"o"}'))).toMatchObject({
      accepted: true,
      targetCount: 1,
    });
    expect(f.rows).toEqual([
      expect.objectContaining({ outcome: 'ACCEPTED', contract_violation: 'schema order.created: /amount is required' }),
    ]);
  });

  it('patterns that may cost more than RULES_INLINE_COST on the payload are not run: 413 contract_too_costly, kept', async () => {
    const patterned = contracts('refuse', [
      { event_type: '*', schema: '{"properties":{"note":{"pattern":"^(a+)+$"}}}' },
    ]);
    const f = fakePorts(view({ contracts: patterned }), { rules: fakeRulePool(2000).pool });
    await ingest(f.ports, request(), body(JSON.stringify({ note: 'a'.repeat(10) })));
    const r = rejected(
      await ingest(f.ports, request({ eventId: 'evt_2' }), body(JSON.stringify({ note: 'a'.repeat(900) }))),
    );
    expect([r.status, r.code, r.outcome]).toEqual([413, 'contract_too_costly', 'PAYLOAD_TOO_LARGE']);
    expect(f.rows.map((row) => [row.outcome, row.quarantine])).toEqual([
      ['ACCEPTED', undefined],
      ['PAYLOAD_TOO_LARGE', 'kept'],
    ]);
  });

  it('a stored schema that does not compile answers 503 endpoint_unavailable', async () => {
    const f = fakePorts(view({ contracts: contracts('refuse', [{ event_type: '*', schema: '{"type":"strin"}' }]) }));
    const r = rejected(await ingest(f.ports, request(), body('{}')));
    expect([r.status, r.code]).toEqual([503, 'endpoint_unavailable']);
    expect(r.reason).toContain('the contract schema for "*" cannot be compiled');
  });
});

describe('ingest pipeline: drift learning (docs/contracts.md "Drift")', () => {
  const secret = 'k';
  const signed = (text: string) => ({
    'content-type': 'application/json',
    'x-github-event': 'push',
    'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`,
  });

  it('an accepted event of a preset endpoint is handed to the learner with its event type', async () => {
    const f = fakePorts(
      view({
        inbound_auth: { type: 'HMAC', preset: 'github', secrets: [`sealed:${secret}`] },
        contracts: {
          event_type: { from: 'header', header: 'x-github-event' },
          mode: 'mark',
          schemas: [{ event_type: '*', schema: 'true' }],
        },
      }),
    );
    const text = '{"ref":"main"}';
    expect(await ingest(f.ports, request({ headers: signed(text) }), body(text))).toMatchObject({ accepted: true });
    expect(f.drift).toEqual([
      {
        accountId: 'acc_1',
        endpointId: 'ep_1',
        eventId: 'evt_1',
        eventType: 'push',
        data: { ref: 'main' },
        at: request().receivedAt,
      },
    ]);
  });

  it('nothing is learned for an endpoint without a preset, nor from a test request or a refusal', async () => {
    const plain = fakePorts(view());
    await ingest(plain.ports, request(), body('{"a":1}'));
    await ingest(plain.ports, request({ eventId: 'evt_2', test: true }), body('{"a":1}'));
    expect(plain.drift).toEqual([]);
    const preset = fakePorts(view({ inbound_auth: { type: 'HMAC', preset: 'github', secrets: [`sealed:${secret}`] } }));
    await ingest(preset.ports, request({ test: true }), body('{"a":1}'));
    await ingest(preset.ports, request({ eventId: 'evt_3', headers: signed('{}') }), body('{"a":1}'));
    expect(preset.drift).toEqual([]);
  });
});
