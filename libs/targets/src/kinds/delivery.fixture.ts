import { DELIVERY_V1 } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';

/** A delivery of a JSON body to a target of `kind`, for the unit tests of the kinds that build messages from one. */
export function jsonDelivery(kind: string, body: string): DeliveryMessageV1 {
  return {
    type: DELIVERY_V1,
    event_id: 'evt_1',
    delivery_id: 'dlv_1',
    attempt: 1,
    account_id: 'acc_1',
    endpoint_id: 'ep_1',
    target_id: 'tg_1',
    target_kind: kind,
    received_at: '2026-11-28T10:00:00.000Z',
    request: { method: 'POST', source_ip: '127.0.0.1', headers: {}, query: '' },
    payload: { content_type: 'application/json', body_base64: Buffer.from(body).toString('base64') },
  };
}
