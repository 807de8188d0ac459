import { ACCOUNT_EVENT_KINDS } from '@relay/contracts';
import type { AccountEventKind } from '@relay/contracts';
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';

/** What became of one sighting of a rule's condition (or of a test alert). */
const ALERT_RESULTS = ['sent', 'test', 'deduplicated', 'rate_limited'] as const;
type AlertResult = (typeof ALERT_RESULTS)[number];

export type AlertMeter = (kind: AccountEventKind, result: AlertResult) => void;

/**
 * `relay_alerts_total{kind, result}` on the management API's /metrics: alerts sent (and test
 * alerts), sightings folded into an open episode, alerts dropped by a rule's hourly rate. Every
 * series exists at 0 from the start, so increase() sees the first one.
 */
export function createAlertMetrics(registry: Registry): AlertMeter {
  const alerts = new Counter({
    name: 'relay_alerts_total',
    help: 'alert rule sightings by condition kind and what became of them: sent, test (a test alert), deduplicated (an episode was open), rate_limited (the rule sent its most alerts this hour)',
    labelNames: ['kind', 'result'],
    registers: [registry],
  });
  for (const kind of ACCOUNT_EVENT_KINDS) for (const result of ALERT_RESULTS) alerts.inc({ kind, result }, 0);
  return (kind, result) => alerts.inc({ kind, result });
}
