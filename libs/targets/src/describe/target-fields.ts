import { RETRY_SCHEDULE_LIMITS } from '../schedule';
import type { Fields, KindDescription } from './field';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A config with the settings that are the target's own fields (`sameAs`) filled from the target
 * when the config leaves them out: a chat target's "target name" (spec "Relay target") is asked
 * once, as the target's name. A value the config does send is kept (clients of the API before
 * this change send both). `filled` maps each filled config setting to the target field it came
 * from, so a problem with it is reported at that field.
 */
export function withTargetFields(description: KindDescription, config: unknown, target: { name?: unknown }): { config: unknown; filled: Record<string, 'name'> } {
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
 * kind's, for the dashboard's forms. The management API checks them (domain/target-input.ts)
 * with the same limits: a name of 1–200 characters, a retry schedule of RETRY_SCHEDULE_LIMITS.
 */
export const TARGET_FIELDS: Fields = {
  name: { type: 'string', label: 'Target name', required: true, trim: true, minLength: 1, maxLength: 200, example: 'slack-alerts' },
  enabled: { type: 'boolean', label: 'Enabled', default: true },
  retry_schedule_ms: {
    type: 'list',
    label: 'Retry schedule',
    help: 'delays between attempts, in ms; empty: no retries; unset: the kind’s default (docs/delivery.md)',
    default: null,
    maxItems: RETRY_SCHEDULE_LIMITS.maxRetries,
    items: { type: 'integer', label: 'Delay (ms)', required: true, minimum: 0, maximum: RETRY_SCHEDULE_LIMITS.maxDelayMs },
  },
};
