import { ACCOUNT_EVENT_KINDS } from '@relay/contracts';
import { CONDITIONS, RULE_LIMITS } from './describe';
import { idsNamedBy, validateAlertRule } from './rules';

const TG = 'tg_0123456789abcdefghjk';
const TG2 = 'tg_0123456789abcdefghjm';
const EP = 'ep_0123456789abcdefghjk';

describe('alert rule validation (docs/alerts.md "Rules")', () => {
  it('fills in every default a condition kind describes, and the cool-down and enabled', () => {
    const v = validateAlertRule({
      name: ' ops ',
      target_ids: [TG],
      conditions: [
        { kind: 'rejection_spike', endpoint_id: EP },
        { kind: 'quota_nearly_used' },
        { kind: 'target_flagged' },
      ],
    });
    expect(v).toEqual({
      ok: true,
      value: {
        name: 'ops',
        enabled: true,
        target_ids: [TG],
        cooldown_minutes: RULE_LIMITS.cooldownDefault,
        conditions: [
          {
            kind: 'rejection_spike',
            endpoint_id: EP,
            outcome: 'ANY_REJECTION',
            threshold_percent: 50,
            window_minutes: 5,
            min_requests: 20,
          },
          { kind: 'quota_nearly_used', threshold_percent: 90 },
          { kind: 'target_flagged' },
        ],
      },
    });
  });

  it('reports every problem at once, each naming its field', () => {
    const v = validateAlertRule({
      name: '',
      target_ids: [TG, TG, 'ep_x'],
      conditions: [
        { kind: 'failure_rate', threshold_percent: 0 },
        { kind: 'nope' },
        { kind: 'quota_nearly_used', endpoint_id: EP },
      ],
      cooldown_minutes: 0,
      extra: 1,
    });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.errors.map((e) => e.field).sort()).toEqual(
      [
        'cooldown_minutes',
        'extra',
        'name',
        'target_ids',
        'target_ids[2]',
        'conditions[0].target_id',
        'conditions[0].threshold_percent',
        'conditions[1].kind',
        'conditions[2].endpoint_id',
      ].sort(),
    );
    expect(v.errors.find((e) => e.field === 'conditions[0].target_id')?.message).toBe(
      'is required for a failure_rate condition',
    );
  });

  it('refuses a rule without targets or conditions, or with more than the limits', () => {
    const many = Array.from({ length: RULE_LIMITS.maxConditions + 1 }, () => ({ kind: 'target_flagged' }));
    const v = validateAlertRule({ name: 'x', target_ids: [], conditions: many });
    expect(v.ok ? [] : v.errors.map((e) => e.field)).toEqual(['target_ids', 'conditions']);
  });

  it('describes a condition for every account event kind', () => {
    expect(Object.keys(CONDITIONS).sort()).toEqual([...ACCOUNT_EVENT_KINDS].sort());
  });

  it('names the ids that must belong to the account', () => {
    const v = validateAlertRule({
      name: 'x',
      target_ids: [TG],
      conditions: [
        { kind: 'failure_rate', target_id: TG2 },
        { kind: 'rejection_spike', endpoint_id: EP },
      ],
    });
    if (!v.ok) throw new Error('invalid');
    expect(idsNamedBy(v.value)).toEqual({ targets: [TG, TG2], endpoints: [EP] });
  });
});
