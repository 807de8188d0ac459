import { DELIVERY_V1 } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';

/**
 * One delivery of a JSON body, as the queue kinds' tests build their messages from it.
 * Test-only: imported by *.test.ts files, never by the lib's entry point.
 */
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
