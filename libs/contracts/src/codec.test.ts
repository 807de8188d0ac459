import { ContractError, decodeMessage, encodeMessage } from './codec';
import { ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1, DELIVERY_V1 } from './messages';
import type { ActivityRequestV1, DeliveryMessageV1 } from './messages';

const delivery: DeliveryMessageV1 = {
  type: DELIVERY_V1,
  event_id: 'evt_1',
  delivery_id: 'dlv_1_1',
  attempt: 1,
  account_id: 'acc_1',
  endpoint_id: 'ep_1',
  target_id: 'tg_1',
  target_kind: 'webhook',
  received_at: '2026-11-21T05:00:00.000Z',
  request: { method: 'POST', source_ip: '127.0.0.1', headers: { 'x-a': 'b' }, query: '' },
  payload: { content_type: 'application/json', body_base64: Buffer.from('{}').toString('base64') },
};

const row: ActivityRequestV1 = {
  type: ACTIVITY_REQUEST_V1,
  event_id: 'evt_1',
  account_id: 'acc_1',
  endpoint_id: 'ep_1',
  received_at: '2026-11-21T05:00:00.000Z',
  method: 'POST',
  source_ip: '127.0.0.1',
  outcome: 'ACCEPTED',
  reason: null,
  target_count: 1,
  test: false,
};

describe('message contracts', () => {
  it('round-trips every versioned type through encode and decode', () => {
    expect(decodeMessage(encodeMessage(delivery), [DELIVERY_V1])).toEqual(delivery);
    expect(decodeMessage(encodeMessage(row), [ACTIVITY_REQUEST_V1, ACTIVITY_ATTEMPT_V1])).toEqual(row);
  });

  it('refuses to publish a message that breaks its schema (producer side)', () => {
    expect(() => encodeMessage({ ...delivery, attempt: 0 })).toThrow(ContractError);
    expect(() => encodeMessage({ ...row, outcome: 'MADE_UP' as never })).toThrow(/outcome/);
  });

  it('rejects bodies that are not JSON, of an unknown type, or of a type the consumer does not take', () => {
    expect(() => decodeMessage(Buffer.from('not json'), [DELIVERY_V1])).toThrow(ContractError);
    expect(() => decodeMessage(Buffer.from('{"type":"relay.unknown.v9"}'), [DELIVERY_V1])).toThrow(/unknown message type/);
    expect(() => decodeMessage(encodeMessage(row), [DELIVERY_V1])).toThrow(/unexpected message type/);
  });

  it('rejects unknown fields, so a renamed field is caught instead of silently dropped', () => {
    const body = Buffer.from(JSON.stringify({ ...delivery, extra: 1 }));
    expect(() => decodeMessage(body, [DELIVERY_V1])).toThrow(ContractError);
  });
});
