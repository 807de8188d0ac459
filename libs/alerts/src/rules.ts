import { ACCOUNT_EVENT_KINDS, isIdOf, resultOf } from '@relay/contracts';
import type { AccountEventKind, FieldError, Validation } from '@relay/contracts';
import { CONDITIONS, RULE_LIMITS } from './describe';

/** One thing a rule watches: its kind and that kind's fields (describe.ts), defaults filled in. */
export interface AlertCondition {
  kind: AccountEventKind;
  target_id?: string;
  endpoint_id?: string;
  threshold_percent?: number;
  window_minutes?: number;
  min_attempts?: number;
  min_requests?: number;
  outcome?: string;
}

export interface AlertRuleInput {
  name: string;
  enabled: boolean;
  /** where alerts go: targets of the account, any kind */
  target_ids: string[];
  conditions: AlertCondition[];
  /** an episode ends after this many minutes without its condition being seen again */
  cooldown_minutes: number;
}

export interface AlertRule extends AlertRuleInput {
  id: string;
  account_id: string;
  created_at: Date;
  updated_at: Date;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkCondition(raw: unknown, at: string, errors: FieldError[]): AlertCondition | null {
  if (!isObject(raw)) {
    errors.push({ field: at, message: 'must be an object with a kind' });
    return null;
  }
  const kind = raw.kind;
  if (typeof kind !== 'string' || !(ACCOUNT_EVENT_KINDS as readonly string[]).includes(kind)) {
    errors.push({ field: `${at}.kind`, message: `must be one of ${ACCOUNT_EVENT_KINDS.join(', ')}` });
    return null;
  }
  const description = CONDITIONS[kind as AccountEventKind];
  const out: Record<string, unknown> = { kind };
  for (const name of Object.keys(raw))
    if (name !== 'kind' && !(name in description.fields))
      errors.push({ field: `${at}.${name}`, message: `is not a field of a ${kind} condition` });
  for (const [name, field] of Object.entries(description.fields)) {
    const value = raw[name];
    const where = `${at}.${name}`;
    if (field.type === 'id') {
      if (value === undefined || value === null) {
        if (field.required) errors.push({ field: where, message: `is required for a ${kind} condition` });
      } else if (typeof value !== 'string' || !isIdOf(field.prefix, value))
        errors.push({ field: where, message: `must be an id (${field.prefix}_…)` });
      else out[name] = value;
    } else if (field.type === 'integer') {
      if (value === undefined) out[name] = field.default;
      else if (typeof value !== 'number' || !Number.isInteger(value) || value < field.min || value > field.max)
        errors.push({ field: where, message: `must be an integer from ${field.min} to ${field.max}` });
      else out[name] = value;
    } else if (value === undefined) out[name] = field.default;
    else if (typeof value !== 'string' || !field.values.includes(value))
      errors.push({ field: where, message: `must be one of ${field.values.join(', ')}` });
    else out[name] = value;
  }
  return out as unknown as AlertCondition;
}

/** Validates a whole rule as sent (create, or replace): every problem at once, defaults filled in. */
export function validateAlertRule(body: unknown): Validation<AlertRuleInput> {
  const errors: FieldError[] = [];
  if (!isObject(body)) return { ok: false, errors: [{ field: '', message: 'must be a JSON object' }] };
  const known = new Set(['name', 'enabled', 'target_ids', 'conditions', 'cooldown_minutes']);
  for (const name of Object.keys(body))
    if (!known.has(name)) errors.push({ field: name, message: 'is not a field of an alert rule' });
  const { name, enabled, target_ids: targetIds, conditions, cooldown_minutes: cooldown } = body;
  if (typeof name !== 'string' || name.trim() === '' || name.length > RULE_LIMITS.nameMax)
    errors.push({ field: 'name', message: `Enter a name of at most ${RULE_LIMITS.nameMax} characters.` });
  if (enabled !== undefined && typeof enabled !== 'boolean')
    errors.push({ field: 'enabled', message: 'must be true or false' });
  if (!Array.isArray(targetIds) || targetIds.length < 1 || targetIds.length > RULE_LIMITS.maxTargets)
    errors.push({ field: 'target_ids', message: `must list 1 to ${RULE_LIMITS.maxTargets} target ids` });
  else {
    targetIds.forEach((t, i) => {
      if (typeof t !== 'string' || !isIdOf('tg', t))
        errors.push({ field: `target_ids[${i}]`, message: 'must be a target id (tg_…)' });
    });
    if (new Set(targetIds).size !== targetIds.length)
      errors.push({ field: 'target_ids', message: 'names a target twice' });
  }
  const checked: AlertCondition[] = [];
  if (!Array.isArray(conditions) || conditions.length < 1 || conditions.length > RULE_LIMITS.maxConditions)
    errors.push({ field: 'conditions', message: `must list 1 to ${RULE_LIMITS.maxConditions} conditions` });
  else
    conditions.forEach((c, i) => {
      const ok = checkCondition(c, `conditions[${i}]`, errors);
      if (ok) checked.push(ok);
    });
  if (
    cooldown !== undefined &&
    (typeof cooldown !== 'number' ||
      !Number.isInteger(cooldown) ||
      cooldown < RULE_LIMITS.cooldownMin ||
      cooldown > RULE_LIMITS.cooldownMax)
  )
    errors.push({
      field: 'cooldown_minutes',
      message: `must be an integer from ${RULE_LIMITS.cooldownMin} to ${RULE_LIMITS.cooldownMax}`,
    });
  return resultOf(errors, () => ({
    name: (name as string).trim(),
    enabled: (enabled as boolean | undefined) ?? true,
    target_ids: targetIds as string[],
    conditions: checked,
    cooldown_minutes: (cooldown as number | undefined) ?? RULE_LIMITS.cooldownDefault,
  }));
}

/** The ids a rule names that must belong to the account: its targets and the targets and endpoints of its conditions. */
export function idsNamedBy(rule: AlertRuleInput): { targets: string[]; endpoints: string[] } {
  const targets = new Set(rule.target_ids);
  const endpoints = new Set<string>();
  for (const c of rule.conditions) {
    if (c.target_id) targets.add(c.target_id);
    if (c.endpoint_id) endpoints.add(c.endpoint_id);
  }
  return { targets: [...targets], endpoints: [...endpoints] };
}
