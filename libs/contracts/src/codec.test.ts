import { checkActivityRecord, ContractError, decodeMessage, encodeActivityBatch, encodeMessage } from './codec';
import {
  ACTIVITY_ATTEMPT_V1,
  ACTIVITY_BATCH_V1,
  ACTIVITY_REQUEST_V1,
  DELIVERY_V1,
  MAX_ACTIVITY_BATCH,
} from './messages';
import type { ActivityAttemptV1, ActivityRequestV1, DeliveryMessageV1 } from './messages';

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

const attempt: ActivityAttemptV1 = {
  type: ACTIVITY_ATTEMPT_V1,
  event_id: 'evt_1',
  delivery_id: 'dlv_1_1',
  account_id: 'acc_1',
  endpoint_id: 'ep_1',
  target_id: 'tg_1',
  target_kind: 'webhook',
  attempt: 1,
  attempted_at: '2026-11-21T05:00:01.000Z',
  state: 'delivered',
  status_code: 200,
  duration_ms: 3,
  error: null,
  next_attempt_at: null,
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
    expect(() => decodeMessage(Buffer.from('{"type":"relay.unknown.v9"}'), [DELIVERY_V1])).toThrow(
      /unknown message type/,
    );
    expect(() => decodeMessage(encodeMessage(row), [DELIVERY_V1])).toThrow(/unexpected message type/);
  });

  it('rejects unknown fields, so a renamed field is caught instead of silently dropped', () => {
    const body = Buffer.from(JSON.stringify({ ...delivery, extra: 1 }));
    expect(() => decodeMessage(body, [DELIVERY_V1])).toThrow(ContractError);
  });

  describe('activity batches', () => {
    const ACTIVITY = [ACTIVITY_REQUEST_V1, ACTIVITY_ATTEMPT_V1, ACTIVITY_BATCH_V1] as const;

    it('carry request rows and attempts together, each checked against its own schema', () => {
      const decoded = decodeMessage(encodeActivityBatch([row, attempt]), ACTIVITY);
      expect(decoded).toEqual({ type: ACTIVITY_BATCH_V1, records: [row, attempt] });
      const broken = Buffer.from(
        JSON.stringify({ type: ACTIVITY_BATCH_V1, records: [row, { ...attempt, state: 'made_up' }] }),
      );
      expect(() => decodeMessage(broken, ACTIVITY)).toThrow(/state|allowed values/);
      const smuggled = Buffer.from(JSON.stringify({ type: ACTIVITY_BATCH_V1, records: [delivery] }));
      expect(() => decodeMessage(smuggled, ACTIVITY)).toThrow(ContractError);
    });

    it('hold 1 to MAX_ACTIVITY_BATCH records', () => {
      expect(() => encodeActivityBatch([])).toThrow(ContractError);
      expect(() => encodeActivityBatch(Array.from({ length: MAX_ACTIVITY_BATCH + 1 }, () => row))).toThrow(/records/);
      const full = Buffer.from(
        JSON.stringify({ type: ACTIVITY_BATCH_V1, records: Array.from({ length: MAX_ACTIVITY_BATCH + 1 }, () => row) }),
      );
      expect(() => decodeMessage(full, ACTIVITY)).toThrow(ContractError);
    });

    it('a producer checks each record alone, so one bad record cannot fail the others', () => {
      expect(checkActivityRecord(row)).toBe(row);
      expect(() => checkActivityRecord({ ...row, outcome: 'MADE_UP' as never })).toThrow(ContractError);
    });
  });
});
