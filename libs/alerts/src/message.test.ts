import { accountEvent } from '@relay/contracts';
import { conditionMatches, episodeKey } from './evaluator';
import { alertBody, dashboardLink, summaryOf } from './message';

const at = '2026-11-26T17:00:30.000Z';
const DASH = 'https://relay.example/';

describe('what an alert says and where it links (docs/alerts.md "Links")', () => {
  it('links a rejection spike to the endpoint’s errors over the window in the activity view', () => {
    const e = accountEvent({
      kind: 'rejection_spike',
      account_id: 'acc_1',
      endpoint_id: 'ep_1',
      at,
      detail: { window_minutes: 10 },
    });
    expect(dashboardLink(DASH, e, null)).toBe(
      'https://relay.example/#/activity?endpoint_id=ep_1&from=2026-11-26T16%3A50&to=2026-11-26T17%3A01&status=errors',
    );
  });

  it("links a target's event to its endpoint's outputs, the quota to usage", () => {
    expect(
      dashboardLink(
        DASH,
        accountEvent({ kind: 'breaker_opened', account_id: 'acc_1', target_id: 'tg_1', at, detail: {} }),
        'ep_9',
      ),
    ).toBe('https://relay.example/#/endpoints/ep_9/outputs');
    expect(
      dashboardLink(DASH, accountEvent({ kind: 'quota_nearly_used', account_id: 'acc_1', at, detail: {} }), null),
    ).toBe('https://relay.example/#/usage');
  });

  it('says what happened in one line, with names', () => {
    const e = accountEvent({
      kind: 'rejection_spike',
      account_id: 'acc_1',
      endpoint_id: 'ep_1',
      at,
      detail: {
        requests: 40,
        rejected: 36,
        rejected_percent: 90,
        outcome: 'AUTH_FAILED',
        threshold_percent: 80,
        window_minutes: 5,
      },
    });
    expect(summaryOf(e, { endpoint: 'github' })).toBe(
      'Endpoint “github” (ep_1): 90% of 40 requests were rejected (AUTH_FAILED) in the last 5 min (threshold 80%). The provider may have rotated its secret.',
    );
    const body = alertBody({
      id: 'al_1',
      ruleId: 'ar_1',
      ruleName: 'gh',
      event: e,
      summary: 'S',
      link: 'L',
      test: false,
    });
    expect(body.content).toBe('[Relay alert] gh: S L');
    expect(body.text).toBe(body.content);
    expect(body.alert).toMatchObject({
      id: 'al_1',
      kind: 'rejection_spike',
      title: 'An endpoint rejects many requests',
      endpoint_id: 'ep_1',
      target_id: null,
      link: 'L',
    });
  });

  it('matches an event to a condition by kind and by the target or endpoint the condition names', () => {
    const flagged = accountEvent({ kind: 'target_flagged', account_id: 'acc_1', target_id: 'tg_1', at, detail: {} });
    expect(conditionMatches({ kind: 'target_flagged' }, flagged)).toBe(true);
    expect(conditionMatches({ kind: 'target_flagged', target_id: 'tg_1' }, flagged)).toBe(true);
    expect(conditionMatches({ kind: 'target_flagged', target_id: 'tg_2' }, flagged)).toBe(false);
    expect(conditionMatches({ kind: 'breaker_opened' }, flagged)).toBe(false);
  });

  it('keys an episode by what it is about: a target, an endpoint and outcome, the month and threshold', () => {
    expect(
      episodeKey(
        { kind: 'target_flagged' },
        accountEvent({ kind: 'target_flagged', account_id: 'acc_1', target_id: 'tg_1', at, detail: {} }),
      ),
    ).toBe('target_flagged:tg_1');
    expect(
      episodeKey(
        { kind: 'rejection_spike', outcome: 'AUTH_FAILED' },
        accountEvent({ kind: 'rejection_spike', account_id: 'acc_1', endpoint_id: 'ep_1', at, detail: {} }),
      ),
    ).toBe('rejection_spike:ep_1:AUTH_FAILED');
    expect(
      episodeKey(
        { kind: 'quota_nearly_used', threshold_percent: 90 },
        accountEvent({ kind: 'quota_nearly_used', account_id: 'acc_1', at, detail: {} }),
      ),
    ).toBe('quota_nearly_used:2026-11:90');
  });

  it('a payload drift: what changed in one line; each new shape its own episode (docs/contracts.md "Drift")', () => {
    const drift = (eventId: string) =>
      accountEvent({
        kind: 'payload_drift',
        account_id: 'acc_1',
        endpoint_id: 'ep_1',
        at,
        detail: {
          event_type: 'push',
          event_id: eventId,
          added: '$.forced',
          removed: '',
          retyped: '$.ref: string → integer',
        },
      });
    expect(summaryOf(drift('evt_1'), { endpoint: 'github' })).toBe(
      'Endpoint “github” (ep_1): event type “push” arrived with a new payload shape (event evt_1) — added: $.forced; removed: none; retyped: $.ref: string → integer.',
    );
    expect(episodeKey({ kind: 'payload_drift' }, drift('evt_1'))).toBe('payload_drift:ep_1:evt_1');
    expect(episodeKey({ kind: 'payload_drift' }, drift('evt_2'))).not.toBe(
      episodeKey({ kind: 'payload_drift' }, drift('evt_1')),
    );
    expect(conditionMatches({ kind: 'payload_drift', endpoint_id: 'ep_2' }, drift('evt_1'))).toBe(false);
  });
});

describe('names stored before invisible characters were refused', () => {
  it('are shown escaped in what an alert says: the rule, the target and the endpoint', () => {
    const e = accountEvent({ kind: 'breaker_closed', account_id: 'acc_1', target_id: 'tg_1', at, detail: {} });
    const summary = summaryOf(e, { target: 'hook\u202Etxt.exe' });
    expect(summary).toBe('The circuit breaker of target “hook\\u202Etxt.exe” (tg_1) closed: deliveries flow again.');
    const body = alertBody({
      id: 'al_1',
      ruleId: 'ar_1',
      ruleName: 'o\u200Bps',
      event: e,
      summary,
      link: 'L',
      test: false,
    });
    expect(body.content).toBe(`[Relay alert] o\\u200Bps: ${summary} L`);
  });
});
