import { deliveryIdFor, resendDeliveryId, resendTag } from '@relay/contracts';
import { statusOf } from './status';

const EVT = 'evt_01m83e0000aaaaaaaaaaaaaaaa';
const ORIGINAL = deliveryIdFor(EVT, 'tg_a');
const RESENT = resendDeliveryId(EVT, 'tg_a', resendTag(Date.parse('2026-11-24T00:00:00Z')));

const delivered = { attempts: { '1': { attempt: 1, state: 'delivered' as const } } };
const retrying = { attempts: { '1': { attempt: 1, state: 'retrying' as const } } };
const failedThenDelivered = { attempts: { '1': { attempt: 1, state: 'retrying' as const }, '2': { attempt: 2, state: 'delivered' as const } } };
const failed = { attempts: { '1': { attempt: 1, state: 'retrying' as const }, '2': { attempt: 2, state: 'failed' as const } } };

describe('activity status groups (Completed / Pending / Errors)', () => {
  it.each([
    ['a rejected request is in Errors', { outcome: 'AUTH_FAILED', target_count: 0 }, 'errors'],
    ["a provider's handshake answered at ingest is Completed: nothing to deliver, nothing to fix", { outcome: 'HANDSHAKE_ANSWERED', target_count: 0 }, 'completed'],
    ["a provider's retry of an accepted delivery id is Completed: answered as a replay, not an error", { outcome: 'DUPLICATE', target_count: 0 }, 'completed'],
    ['an accepted request without targets is Completed', { outcome: 'ACCEPTED', target_count: 0 }, 'completed'],
    ['an accepted request whose targets all delivered is Completed', { outcome: 'ACCEPTED', target_count: 2, deliveries: { a: delivered, b: failedThenDelivered } }, 'completed'],
    ['an accepted request with a delivery not yet reported is Pending', { outcome: 'ACCEPTED', target_count: 2, deliveries: { a: delivered } }, 'pending'],
    ['an accepted request with a delivery still retrying is Pending', { outcome: 'ACCEPTED', target_count: 1, deliveries: { a: retrying } }, 'pending'],
    ['an accepted request with a delivery that failed for good is in Errors', { outcome: 'ACCEPTED', target_count: 2, deliveries: { a: delivered, b: failed } }, 'errors'],
    ['attempts that arrive before their request row are Pending', { deliveries: { a: delivered } }, 'pending'],
    ['a failed delivery replaced by a resend that delivered is Completed', { outcome: 'ACCEPTED', target_count: 1, deliveries: { [ORIGINAL]: { target_id: 'tg_a', delivery_id: ORIGINAL, ...failed }, [RESENT]: { target_id: 'tg_a', delivery_id: RESENT, ...delivered } } }, 'completed'],
    ['a delivered delivery resent and failing again is in Errors: the latest delivery of a target counts', { outcome: 'ACCEPTED', target_count: 1, deliveries: { [RESENT]: { target_id: 'tg_a', delivery_id: RESENT, ...failed }, [ORIGINAL]: { target_id: 'tg_a', delivery_id: ORIGINAL, ...delivered } } }, 'errors'],
    ['a resend still retrying makes the row Pending', { outcome: 'ACCEPTED', target_count: 1, deliveries: { [ORIGINAL]: { target_id: 'tg_a', delivery_id: ORIGINAL, ...failed }, [RESENT]: { target_id: 'tg_a', delivery_id: RESENT, ...retrying } } }, 'pending'],
  ])('%s', (_name, doc, expected) => {
    expect(statusOf(doc)).toBe(expected);
  });
});
