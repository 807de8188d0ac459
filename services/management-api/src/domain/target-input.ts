import { isDeepStrictEqual } from 'node:util';
import { ORDERED_CHANNELS } from '@relay/contracts';
import type { FieldError, Validation } from '@relay/contracts';
import { routingFormatProblem } from '@relay/endpoints';
import type { PayloadFormat, Routing } from '@relay/endpoints';
import {
  checkTargetName,
  validateBreakerSettings,
  validateOrdering,
  validateRetrySchedule,
  validateRouting,
  validateTargetLimits,
  withTargetFields,
} from '@relay/targets';
import type { BreakerSettings, OrderingSettings, TargetLimits, TargetRegistry } from '@relay/targets';
import { bool, fail, fieldNameErrors, isRecord, ok } from './input-fields';

/** A target as a create stores it; `config` is its kind's normalized config, secrets sealed. */
export interface NewTarget {
  kind: string;
  name: string;
  enabled: boolean;
  config: Record<string, unknown>;
  /** null = the kind's default schedule */
  retry_schedule_ms: number[] | null;
  /** null = the kind's default limits (docs/delivery-limits.md) */
  limits: TargetLimits | null;
  /** null = the breaker defaults */
  breaker: BreakerSettings | null;
  /** null = every event (docs/routing.md) */
  routing: Routing | null;
  /** null = no ordering (docs/ordering.md) */
  ordering: OrderingSettings | null;
}

/** What a PATCH may change. A config (or kind) change is a new target. */
export type TargetChanges = Partial<
  Pick<NewTarget, 'name' | 'enabled' | 'retry_schedule_ms' | 'limits' | 'breaker' | 'routing' | 'ordering'>
>;

type Changeable = keyof TargetChanges;

// a target's name and retry schedule are checked by their description (TARGET_FIELDS), the one the dashboard's form is drawn from
const VALIDATORS: { [K in Changeable]: (raw: unknown) => Validation<NewTarget[K]> } = {
  name: checkTargetName,
  enabled: bool('enabled'),
  retry_schedule_ms: (raw) => validateRetrySchedule(raw),
  limits: validateTargetLimits,
  breaker: validateBreakerSettings,
  routing: (raw) => validateRouting(raw),
  ordering: validateOrdering,
};
const CHANGEABLE = Object.keys(VALIDATORS) as Changeable[];

/** Fields of the response a client may send back by mistake (GET → edit → PATCH); refused by name. */
const READ_ONLY_FIELDS = new Set([
  'id',
  'account_id',
  'endpoint_id',
  'flagged',
  'default_retry_schedule_ms',
  'default_limits',
  'breaker_state',
  'created_at',
  'updated_at',
]);

/** Each field sent, through its own validator; every problem collected. */
function readChanges(input: Record<string, unknown>, errors: FieldError[]): TargetChanges {
  const out: Record<string, unknown> = {};
  for (const name of CHANGEABLE) {
    if (input[name] === undefined) continue;
    const result = VALIDATORS[name](input[name]);
    if (result.ok) out[name] = result.value;
    else errors.push(...result.errors);
  }
  return out as TargetChanges;
}

/**
 * Validates a new target (spec "Outputs"): `kind` one the registry knows, `name`, the kind's
 * `config` (its own validator names each field, e.g. `config.url`), and optionally `enabled`
 * (default true), `retry_schedule_ms` (default null: the kind's schedule) and `routing`
 * (default null: every event; docs/routing.md). Every problem is
 * reported at once; unknown and read-only fields are refused by name. Secrets in the config come
 * back sealed by the kind.
 */
export function validateNewTarget(input: unknown, registry: TargetRegistry): Validation<NewTarget> {
  if (!isRecord(input)) return fail('(body)', 'must be a JSON object');
  const errors = fieldNameErrors(input, ['kind', 'config', ...CHANGEABLE], READ_ONLY_FIELDS);
  const kind = typeof input.kind === 'string' ? registry.get(input.kind) : undefined;
  if (input.kind === undefined) errors.push({ field: 'kind', message: 'is required' });
  else if (!kind) errors.push({ field: 'kind', message: `must be one of ${registry.kinds().join(', ')}` });
  if (input.name === undefined) errors.push({ field: 'name', message: 'is required' });
  const changes = readChanges(input, errors);
  // a config can only be checked against a known kind; a setting that is the target's own field
  // (a chat target's name) is taken from it, so the name is asked once — and a problem with it
  // is the target field's, reported there once
  const own = kind
    ? withTargetFields(kind.description, input.config, { name: input.name })
    : { config: input.config, filled: {} };
  const config = kind?.validateConfig(own.config);
  if (config && !config.ok) errors.push(...targetFieldErrors(config.errors, own.filled, errors));
  if (errors.length > 0 || !kind || !config?.ok) return { ok: false, errors };
  return ok({
    kind: kind.kind,
    name: changes.name!,
    enabled: changes.enabled ?? true,
    config: config.value as Record<string, unknown>,
    retry_schedule_ms: changes.retry_schedule_ms ?? null,
    limits: changes.limits ?? null,
    breaker: changes.breaker ?? null,
    routing: changes.routing ?? null,
    ordering: changes.ordering ?? null,
  });
}

/** The config's errors, those at a setting filled from a target field moved to that field unless it already has one. */
function targetFieldErrors(
  configErrors: FieldError[],
  filled: Record<string, string>,
  targetErrors: FieldError[],
): FieldError[] {
  const out: FieldError[] = [];
  for (const e of configErrors) {
    const from = filled[e.field.replace(/^config\./, '')];
    if (from === undefined) out.push(e);
    else if (![...targetErrors, ...out].some((t) => t.field === from)) out.push({ field: from, message: e.message });
  }
  return out;
}

/** Validates a PATCH: only `name`, `enabled`, `retry_schedule_ms`, `limits`, `breaker`, `routing` and `ordering`; every problem at once. */
export function validateTargetChanges(input: unknown): Validation<TargetChanges> {
  if (!isRecord(input)) return fail('(body)', 'must be a JSON object');
  const errors = fieldNameErrors(input, CHANGEABLE, READ_ONLY_FIELDS, {
    kind: 'cannot be changed here',
    config: 'cannot be changed here',
  });
  const changes = readChanges(input, errors);
  return errors.length > 0 ? { ok: false, errors } : ok(changes);
}

/**
 * Routing rules read fields of the parsed payload: refused at save, naming `routing`, when the
 * endpoint's payload format has none (text, none; docs/routing.md).
 */
export function routingApplies<T extends { routing?: Routing | null }>(
  result: Validation<T>,
  format: PayloadFormat,
): Validation<T> {
  const problem = result.ok && result.value.routing ? routingFormatProblem(format) : null;
  return problem === null ? result : { ok: false, errors: [{ field: 'routing', message: problem }] };
}

/**
 * Ordering is refused at save, naming `ordering`, on a kind whose deliverers do not keep keys in
 * order (ORDERED_CHANNELS), and a key read from a payload field on a payload format that has none
 * (docs/ordering.md).
 */
export function orderingApplies<T extends { ordering?: OrderingSettings | null }>(
  result: Validation<T>,
  kind: string | undefined,
  format: PayloadFormat,
  registry: TargetRegistry,
): Validation<T> {
  const ordering = result.ok ? result.value.ordering : null;
  if (!ordering) return result;
  const channel = kind === undefined ? undefined : registry.get(kind)?.channel;
  const problem =
    channel !== undefined && !ORDERED_CHANNELS.includes(channel)
      ? `is not supported by ${kind} targets (only ${registry
          .kinds()
          .filter((k) => ORDERED_CHANNELS.includes(registry.get(k)!.channel))
          .join(', ')}; docs/ordering.md)`
      : ordering.key.from === 'path'
        ? routingFormatProblem(format)
        : null;
  return problem === null ? result : { ok: false, errors: [{ field: 'ordering', message: problem }] };
}

/**
 * The fields of a PATCH whose values differ from the stored target's, by deep comparison (an
 * unset value is the same as null, the form's "default"): what the audit entry names. A form
 * sends every field it shows, so the fields sent are not the fields changed.
 */
export function changedTargetFields(stored: Partial<Record<Changeable, unknown>>, sent: TargetChanges): Changeable[] {
  return (Object.keys(sent) as Changeable[])
    .filter((k) => !isDeepStrictEqual(normalised(stored[k]), normalised(sent[k])))
    .sort();
}

/** JSON's view of a value: undefined and null alike, a stored document's key order and prototypes ignored. */
const normalised = (v: unknown): unknown => (v === undefined ? null : JSON.parse(JSON.stringify(v)));
