import { OUTCOMES } from '@relay/contracts';
import type { AccountEventKind } from '@relay/contracts';

/*
 * What an alert rule may watch, described once as data (STYLE "one description, many uses"):
 * the rule validator (rules.ts), the OpenAPI schema of a condition (management API
 * openapi/alert-rule-paths.ts) and the dashboard's form are all built from this table.
 */

export type ConditionField =
  | { type: 'id'; prefix: 'tg' | 'ep'; required: boolean; label: string; help: string }
  | { type: 'integer'; min: number; max: number; default: number; label: string; help: string }
  | { type: 'enum'; values: readonly string[]; default: string; label: string; help: string };

interface ConditionDescription {
  label: string;
  help: string;
  /** watched by the detector from counters (periodically), or told by an account event */
  source: 'event' | 'counters';
  fields: Record<string, ConditionField>;
}

/** Any rejection outcome at all, or one of them. */
export const ANY_REJECTION = 'ANY_REJECTION';
const REJECTION_OUTCOMES: readonly string[] = OUTCOMES.filter(
  (o) => o !== 'ACCEPTED' && o !== 'HANDSHAKE_ANSWERED' && o !== 'DUPLICATE',
);

const anyTarget = (what: string) =>
  ({
    type: 'id',
    prefix: 'tg',
    required: false,
    label: 'Target',
    help: `the target whose ${what}; none: any target of the account`,
  }) as const;
const percent = (def: number, help: string) =>
  ({ type: 'integer', min: 1, max: 100, default: def, label: 'Threshold (%)', help }) as const;
const window = {
  type: 'integer',
  min: 1,
  max: 60,
  default: 5,
  label: 'Window (minutes)',
  help: 'the share is counted over this many last minutes',
} as const;

export const CONDITIONS: Readonly<Record<AccountEventKind, ConditionDescription>> = {
  target_flagged: {
    label: 'A target was flagged',
    help: 'Relay stopped delivering to a target: its destination is gone or refused too many times in a row.',
    source: 'event',
    fields: { target_id: anyTarget('flag') },
  },
  breaker_opened: {
    label: "A target's circuit breaker opened",
    help: 'Deliveries to the target are held because too many failed.',
    source: 'event',
    fields: { target_id: anyTarget('breaker') },
  },
  breaker_closed: {
    label: "A target's circuit breaker closed",
    help: 'The target answers again; held deliveries flow.',
    source: 'event',
    fields: { target_id: anyTarget('breaker') },
  },
  ordering_key_stuck: {
    label: 'An ordering key is stuck',
    help: "A delivery at the head of one of the target's ordering keys has not been delivered for longer than the deliverers' bound (ORDERING_STUCK_AFTER_MS); the key's later events wait behind it.",
    source: 'event',
    fields: { target_id: anyTarget('ordering key') },
  },
  payload_drift: {
    label: "A provider's payload shape changed",
    help: 'An event of an endpoint authenticated by a provider preset came with a payload shape not seen before for its event type: fields appeared, disappeared or changed type against the first shape seen (docs/contracts.md "Drift").',
    source: 'event',
    fields: {
      endpoint_id: {
        type: 'id',
        prefix: 'ep',
        required: false,
        label: 'Endpoint',
        help: 'the endpoint whose payloads are watched; none: any endpoint of the account',
      },
    },
  },
  failure_rate: {
    label: "A target's failure rate is high",
    help: "The share of the target's delivery attempts that failed over the window reached the threshold.",
    source: 'counters',
    fields: {
      target_id: {
        type: 'id',
        prefix: 'tg',
        required: true,
        label: 'Target',
        help: 'the target whose attempts are counted',
      },
      threshold_percent: percent(50, 'failed attempts, in percent of all attempts in the window'),
      window_minutes: window,
      min_attempts: {
        type: 'integer',
        min: 1,
        max: 100_000,
        default: 10,
        label: 'Least attempts',
        help: 'no alert on fewer attempts than this in the window',
      },
    },
  },
  rejection_spike: {
    label: 'An endpoint rejects many requests',
    help: "The share of the endpoint's requests rejected (with one outcome, or any) over the window reached the threshold. AUTH_FAILED usually means the provider rotated its secret.",
    source: 'counters',
    fields: {
      endpoint_id: {
        type: 'id',
        prefix: 'ep',
        required: true,
        label: 'Endpoint',
        help: 'the endpoint whose requests are counted',
      },
      outcome: {
        type: 'enum',
        values: [ANY_REJECTION, ...REJECTION_OUTCOMES],
        default: ANY_REJECTION,
        label: 'Outcome',
        help: 'the rejection counted, or any rejection',
      },
      threshold_percent: percent(50, 'rejected requests, in percent of all requests in the window'),
      window_minutes: window,
      min_requests: {
        type: 'integer',
        min: 1,
        max: 100_000,
        default: 20,
        label: 'Least requests',
        help: 'no alert on fewer requests than this in the window',
      },
    },
  },
  quota_nearly_used: {
    label: 'The monthly quota is nearly used',
    help: "The account's accepted events this month reached the threshold of its plan's monthly quota.",
    source: 'counters',
    fields: { threshold_percent: percent(90, "accepted events, in percent of the plan's monthly quota") },
  },
};

/** Limits of one rule (docs/alerts.md "Rules"). */
export const RULE_LIMITS = {
  maxRulesPerAccount: 20,
  maxTargets: 10,
  maxConditions: 10,
  nameMax: 100,
  cooldownMin: 1,
  cooldownMax: 1440,
  cooldownDefault: 60,
} as const;
