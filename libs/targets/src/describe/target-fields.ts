import type { Routing } from '@relay/endpoints';
import { RETRY_SCHEDULE_LIMITS } from '../schedule';
import { ROUTING_FIELD } from './routing-field';
import { KEY_SOURCE_FIELD, ORDERING_FIELD } from './ordering-field';
import type { OrderingSettings } from './ordering-field';
import type { Validation } from '@relay/contracts';
import type { Fields, KindDescription } from './field';
import { checkField } from './validate';
import { BREAKER_DEFAULTS, TARGET_LIMITS } from './limits';
import type { BreakerSettings, TargetLimits } from './limits';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A config with the settings that are the target's own fields (`sameAs`) filled from the target
 * when the config leaves them out: a chat target's "target name" (spec "Relay target") is asked
 * once, as the target's name. A value the config does send is kept (clients of the API before
 * this change send both). `filled` maps each filled config setting to the target field it came
 * from, so a problem with it is reported at that field.
 */
export function withTargetFields(
  description: KindDescription,
  config: unknown,
  target: { name?: unknown },
): { config: unknown; filled: Record<string, 'name'> } {
  if (!isObject(config)) return { config, filled: {} };
  const out = { ...config };
  const filled: Record<string, 'name'> = {};
  for (const [key, field] of Object.entries(description.fields)) {
    if (field.sameAs === 'name' && (out[key] === undefined || out[key] === null)) {
      out[key] = target.name;
      filled[key] = 'name';
    }
  }
  return { config: out, filled };
}

/**
 * The settings every target has beside its kind's config (spec "Outputs"), described like a
 * kind's: the dashboard's forms are drawn from them, and the management API checks a target's
 * name and retry schedule with them (checkTargetName, validateRetrySchedule) — one description,
 * so the form's limits and the API's cannot drift. The messages are the API's own.
 */
export const TARGET_FIELDS = {
  name: {
    type: 'string',
    label: 'Target name',
    required: true,
    trim: true,
    minLength: 1,
    maxLength: 200,
    example: 'slack-alerts',
    message: 'Enter a name of at most 200 characters.',
    requiredMessage: 'Enter a name of at most 200 characters.',
  },
  enabled: { type: 'boolean', label: 'Enabled', default: true },
  retry_schedule_ms: {
    type: 'list',
    label: 'Retry schedule',
    help: 'delays between attempts, in ms; empty: no retries; unset: the kind’s default (docs/delivery.md)',
    default: null,
    maxItems: RETRY_SCHEDULE_LIMITS.maxRetries,
    maxItemsMessage: 'at most {max} retries',
    message: 'must be an array of delays in milliseconds, or null for the default',
    items: {
      type: 'integer',
      label: 'Delay (ms)',
      required: true,
      minimum: 0,
      maximum: RETRY_SCHEDULE_LIMITS.maxDelayMs,
      message: `must be an integer from 0 to ${RETRY_SCHEDULE_LIMITS.maxDelayMs}`,
      requiredMessage: `must be an integer from 0 to ${RETRY_SCHEDULE_LIMITS.maxDelayMs}`,
    },
  },
  limits: {
    type: 'object',
    label: 'Delivery limits',
    help: 'how fast this target is sent to, across every deliverer; unset: the kind’s default (a chat platform’s published limit; none for webhooks) — docs/delivery-limits.md',
    default: null,
    message: 'must be an object ({rate, per, max_in_flight}) or null for the kind’s default',
    fields: {
      rate: {
        type: 'integer',
        label: 'Rate',
        help: 'deliveries sent at most per `per`; unset: no rate limit',
        default: null,
        minimum: 1,
        maximum: TARGET_LIMITS.maxRate,
        example: 10,
      },
      per: {
        type: 'enum',
        label: 'Per',
        default: 'second',
        values: [
          { value: 'second', label: 'second' },
          { value: 'minute', label: 'minute' },
        ],
      },
      max_in_flight: {
        type: 'integer',
        label: 'At most in flight',
        help: 'deliveries sent and not yet answered, at once; unset: no limit',
        default: null,
        minimum: 1,
        maximum: TARGET_LIMITS.maxInFlight,
        example: 4,
      },
    },
  },
  breaker: {
    type: 'object',
    label: 'Circuit breaker',
    help: 'when to stop sending to a failing target and hold its deliveries; unset: the defaults (docs/delivery-limits.md)',
    default: null,
    message: 'must be an object of breaker settings or null for the defaults',
    fields: {
      failure_rate_pct: {
        type: 'integer',
        label: 'Opens at failure rate (%)',
        default: BREAKER_DEFAULTS.failure_rate_pct,
        minimum: 1,
        maximum: 100,
      },
      min_attempts: {
        type: 'integer',
        label: 'Over at least (attempts)',
        help: 'attempts in the window before the rate counts',
        default: BREAKER_DEFAULTS.min_attempts,
        minimum: 1,
        maximum: 100_000,
      },
      window_s: {
        type: 'integer',
        label: 'Window (s)',
        default: BREAKER_DEFAULTS.window_s,
        minimum: 10,
        maximum: 3600,
      },
      cool_down_s: {
        type: 'integer',
        label: 'Probe after (s)',
        help: 'how long it stays open before one probe is let through',
        default: BREAKER_DEFAULTS.cool_down_s,
        minimum: 1,
        maximum: 3600,
      },
      flag_after_open_s: {
        type: 'integer',
        label: 'Flag after open for (s)',
        help: 'a breaker open this long flags the target (as a 410 does)',
        default: BREAKER_DEFAULTS.flag_after_open_s,
        minimum: 60,
        maximum: 30 * 86_400,
      },
    },
  },
  routing: ROUTING_FIELD,
  ordering: ORDERING_FIELD,
} satisfies Fields;

/** A target's name, checked and trimmed by its description (TARGET_FIELDS.name). */
export function checkTargetName(input: unknown): Validation<string> {
  return checkField<string>(TARGET_FIELDS.name, input, 'name');
}

/**
 * Save-time check of a per-target schedule, from TARGET_FIELDS.retry_schedule_ms. `null` means
 * "the kind's default"; `[]` means no retries. Delays need not match the deliverer's tiers: each
 * is served by the smallest tier at or above it (docs/delivery.md "Tiers and jitter").
 */
export function validateRetrySchedule(input: unknown, field = 'retry_schedule_ms'): Validation<number[] | null> {
  const checked = checkField<number[] | null>(TARGET_FIELDS.retry_schedule_ms, input, field);
  return checked.ok ? { ok: true, value: checked.value ?? null } : checked;
}

/** A target's delivery limits (TARGET_FIELDS.limits); null: the kind's default. */
export function validateTargetLimits(input: unknown): Validation<TargetLimits | null> {
  const checked = checkField<TargetLimits | null>(TARGET_FIELDS.limits, input, 'limits');
  return checked.ok ? { ok: true, value: checked.value ?? null } : checked;
}

/** A target's breaker settings (TARGET_FIELDS.breaker); null: the defaults. */
export function validateBreakerSettings(input: unknown): Validation<BreakerSettings | null> {
  const checked = checkField<BreakerSettings | null>(TARGET_FIELDS.breaker, input, 'breaker');
  return checked.ok ? { ok: true, value: checked.value ?? null } : checked;
}

/** A target's ordering per key (TARGET_FIELDS.ordering); null: none. Whether its kind supports it is checked where the kind is known. */
export function validateOrdering(input: unknown): Validation<OrderingSettings | null> {
  const checked = checkField<OrderingSettings | null>(TARGET_FIELDS.ordering, input, 'ordering');
  return checked.ok ? { ok: true, value: checked.value ?? null } : checked;
}

/**
 * A key read from a payload field or a request header, described once by the ordering key: an
 * endpoint's contract event type (docs/contracts.md) is read the same way.
 */
export function validateKeySource(input: unknown, field: string): Validation<OrderingSettings['key']> {
  return checkField<OrderingSettings['key']>(KEY_SOURCE_FIELD, input, field);
}

/** Save-time check of a target's routing rules (TARGET_FIELDS.routing); `null` routes every event. */
export function validateRouting(input: unknown, field = 'routing'): Validation<Routing | null> {
  const checked = checkField<Routing | null>(TARGET_FIELDS.routing, input, field);
  return checked.ok ? { ok: true, value: checked.value ?? null } : checked;
}
