import type { LimitRequest } from '../../domain/ports';
import { LocalLimiter } from './local-limiter';

const at = (iso: string, over: Partial<LimitRequest> = {}): LimitRequest => ({
  endpointId: 'ep_1',
  accountId: 'acc_1',
  ratePerMinute: 3,
  monthlyQuota: 100,
  now: new Date(iso),
  ...over,
});
const KEY = 'ns:quota:acc_1:2025-03';

describe('per-process fallback limiter (used while Redis is unreachable)', () => {
  it('applies the same GCRA bucket per endpoint, with the same Retry-After', () => {
    const l = new LocalLimiter();
    const decisions = [0, 1, 2, 3].map(() => l.admit(at('2025-03-10T12:00:10Z'), KEY));
    expect(decisions.map((d) => d.admitted)).toEqual([true, true, true, false]);
    // 3/min: one slot frees every 20 s
    expect(decisions[3]).toEqual({ admitted: false, limit: 'rate', retryAfterSeconds: 20 });
    expect(l.admit(at('2025-03-10T12:00:30Z'), KEY).admitted).toBe(true);
    expect(l.admit(at('2025-03-10T12:00:10Z', { endpointId: 'ep_2' }), KEY).admitted).toBe(true);
  });

  it('continues the quota from the count Redis last reported', () => {
    const l = new LocalLimiter();
    l.observe(KEY, 99);
    expect(l.admit(at('2025-03-10T12:00:00Z'), KEY)).toEqual({ admitted: true, counter: 'local' });
    expect(l.admit(at('2025-03-10T12:00:01Z'), KEY)).toEqual({ admitted: false, limit: 'quota' });
  });

  it('owes the units it counted (minus refunds) to Redis until settled', () => {
    const l = new LocalLimiter();
    l.observe(KEY, 10);
    l.admit(at('2025-03-10T12:00:00Z'), KEY);
    l.admit(at('2025-03-10T12:00:01Z'), KEY);
    l.refund(KEY);
    expect(l.owed()).toEqual([[KEY, 1]]);
    expect(l.hasOwed()).toBe(true);
    l.settle(KEY, 1, 11);
    expect(l.owed()).toEqual([]);
    expect(l.hasOwed()).toBe(false);
  });
});
