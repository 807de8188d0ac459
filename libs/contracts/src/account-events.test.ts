import { accountEvent, ACCOUNT_EVENT_KINDS, MAX_ACCOUNT_EVENT_DETAIL_KEYS } from './account-events';
import { ContractError, decodeMessage, encodeMessage } from './codec';

const base = { account_id: 'acc_1', at: '2026-11-26T17:00:00.000Z', detail: { failure_rate: 0.8, window_s: 300 } };

describe('relay.account-event.v1', () => {
  it.each(ACCOUNT_EVENT_KINDS)('round-trips a %s event', (kind) => {
    const event = accountEvent({ ...base, kind, endpoint_id: 'ep_1', target_id: 'tg_1' });
    expect(decodeMessage(encodeMessage(event), ['relay.account-event.v1'])).toEqual(event);
  });

  it('takes an event about the account alone (no endpoint, no target)', () => {
    const event = accountEvent({
      ...base,
      kind: 'quota_nearly_used',
      detail: { used: 900, limit: 1000, threshold_percent: 90 },
    });
    expect(decodeMessage(encodeMessage(event), ['relay.account-event.v1']).endpoint_id).toBeUndefined();
  });

  it('refuses an unknown kind, a missing account and a detail that is not small scalars', () => {
    expect(() => encodeMessage(accountEvent({ ...base, kind: 'exploded' as never }))).toThrow(ContractError);
    expect(() => encodeMessage(accountEvent({ ...base, account_id: '', kind: 'target_flagged' }))).toThrow(
      /account_id/,
    );
    expect(() =>
      encodeMessage(accountEvent({ ...base, kind: 'target_flagged', detail: { nested: { a: 1 } as never } })),
    ).toThrow(ContractError);
    const many = Object.fromEntries(Array.from({ length: MAX_ACCOUNT_EVENT_DETAIL_KEYS + 1 }, (_, i) => [`k${i}`, i]));
    expect(() => encodeMessage(accountEvent({ ...base, kind: 'target_flagged', detail: many }))).toThrow(ContractError);
  });

  it('is not accepted where another type is expected', () => {
    const body = encodeMessage(accountEvent({ ...base, kind: 'breaker_opened', target_id: 'tg_1' }));
    expect(() => decodeMessage(body, ['relay.delivery.v1'])).toThrow(/unexpected message type/);
  });
});
