import { auditActionsFor } from './audit';
import { quotaKey } from '@relay/contracts';
import { usagePeriod, usageView } from './usage';

describe('usage period and counter key', () => {
  it.each([
    ['2025-03-15T12:00:00Z', '2025-03', '2025-03-01T00:00:00.000Z', '2025-04-01T00:00:00.000Z'],
    ['2025-12-31T23:59:59.999Z', '2025-12', '2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01T00:30:00+01:00', '2025-12', '2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
  ])('%s counts in the UTC month %s', (now, month, start, end) => {
    const p = usagePeriod(new Date(now));
    expect([p.month, p.start.toISOString(), p.end.toISOString()]).toEqual([month, start, end]);
    expect(quotaKey('relay', 'acc_1', p.month)).toBe(`relay:quota:acc_1:${month}`);
  });

  it('remaining never goes below zero', () => {
    const plan = { name: 'starter', monthly_accepted_events: 10, payload_limit_bytes: 1024 };
    const p = usagePeriod(new Date('2025-03-15T00:00:00Z'));
    expect(usageView('acc_1', plan, p, 4)).toMatchObject({ accepted_events: 4, limit: 10, remaining: 6 });
    expect(usageView('acc_1', plan, p, 12)).toMatchObject({ accepted_events: 12, limit: 10, remaining: 0 });
  });
});

describe('audit: a manual disable, pause or resume is recorded', () => {
  it.each([
    [{ enabled: false }, ['disabled']],
    [{ enabled: true }, []],
    [{ paused: true }, ['paused']],
    [{ enabled: false, paused: true }, ['disabled', 'paused']],
    [{}, []],
  ])('from enabled and not paused, %j records %j', (after, actions) => {
    expect(auditActionsFor({ enabled: true, paused: false }, after)).toEqual(actions);
  });

  it('enable and resume are recorded too', () => {
    expect(auditActionsFor({ enabled: false, paused: true }, { enabled: true, paused: false })).toEqual([
      'enabled',
      'resumed',
    ]);
  });
});
