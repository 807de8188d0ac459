import { statusOf } from './status';

const delivered = { attempts: { '1': { attempt: 1, state: 'delivered' as const } } };
const retrying = { attempts: { '1': { attempt: 1, state: 'retrying' as const } } };
const failedThenDelivered = { attempts: { '1': { attempt: 1, state: 'retrying' as const }, '2': { attempt: 2, state: 'delivered' as const } } };
const failed = { attempts: { '1': { attempt: 1, state: 'retrying' as const }, '2': { attempt: 2, state: 'failed' as const } } };

describe('activity status groups (Completed / Pending / Errors)', () => {
  it.each([
    ['a rejected request is in Errors', { outcome: 'AUTH_FAILED', target_count: 0 }, 'errors'],
    ['an accepted request without targets is Completed', { outcome: 'ACCEPTED', target_count: 0 }, 'completed'],
    ['an accepted request whose targets all delivered is Completed', { outcome: 'ACCEPTED', target_count: 2, deliveries: { a: delivered, b: failedThenDelivered } }, 'completed'],
    ['an accepted request with a delivery not yet reported is Pending', { outcome: 'ACCEPTED', target_count: 2, deliveries: { a: delivered } }, 'pending'],
    ['an accepted request with a delivery still retrying is Pending', { outcome: 'ACCEPTED', target_count: 1, deliveries: { a: retrying } }, 'pending'],
    ['an accepted request with a delivery that failed for good is in Errors', { outcome: 'ACCEPTED', target_count: 2, deliveries: { a: delivered, b: failed } }, 'errors'],
    ['attempts that arrive before their request row are Pending', { deliveries: { a: delivered } }, 'pending'],
  ])('%s', (_name, doc, expected) => {
    expect(statusOf(doc)).toBe(expected);
  });
});
