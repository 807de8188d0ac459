import {
  PAYLOAD_FORMATS,
  validateBodyFilters,
  validateCaptchaSettings,
  validateFieldRules,
  validateInboundAuth,
  validateIpAccessLists,
  validateMaintenanceWindows,
  validateRateLimit,
  validateRequiredHeaders,
} from '@relay/endpoints';
import type { FieldError, Validation } from '@relay/contracts';
import type { PayloadFormat } from '@relay/endpoints';
import { METHODS, READ_ONLY_FIELDS, SETTING_NAMES } from './endpoint-settings';
import { bool, fail, fieldNameErrors, isRecord, ok, validateName } from './input-fields';
import type { EndpointSettings, SettingName } from './endpoint-settings';
import { resolveCaptchaKeep, resolveInboundAuthKeeps } from './secret-keep';
import { validateContracts } from './contracts';
import type { StoredSecrets } from './secret-keep';

type Validator<K extends SettingName> = (raw: unknown, stored: StoredSecrets | null) => Validation<EndpointSettings[K]>;

/** `{ keep }` placeholders are resolved first, so the setting is validated as it will be stored. */
function withKeeps<T>(
  resolved: { value: unknown; errors: FieldError[] },
  validate: (v: unknown) => Validation<T>,
): Validation<T> {
  return resolved.errors.length > 0 ? { ok: false, errors: resolved.errors } : validate(resolved.value);
}

/**
 * One validator per setting (spec "Resources / Endpoint"); each names the fields it refuses,
 * e.g. `inbound_auth.api_key.header` or `body_filters[1].pattern`. Rules that involve several
 * settings are checked on the merged result by `checkCombination`.
 */
const VALIDATORS: { [K in SettingName]: Validator<K> } = {
  name: (raw) => validateName(raw),
  methods: (raw) => {
    const valid =
      Array.isArray(raw) &&
      raw.length > 0 &&
      raw.every((m) => typeof m === 'string' && (METHODS as readonly string[]).includes(m.toUpperCase()));
    if (!valid) return fail('methods', `must be a non-empty list of ${METHODS.join(', ')}`);
    // stored in one canonical order, so the same set of methods is the same setting
    const given = new Set((raw as string[]).map((m) => m.toUpperCase()));
    return ok(METHODS.filter((m) => given.has(m)));
  },
  payload_format: (raw) =>
    (PAYLOAD_FORMATS as readonly unknown[]).includes(raw)
      ? ok(raw as PayloadFormat)
      : fail('payload_format', `must be one of ${PAYLOAD_FORMATS.join(', ')}`),
  // the name's own rules depend on the format and are checked with it (checkCombination)
  query_param_name: (raw) =>
    raw === null || typeof raw === 'string'
      ? ok(raw)
      : fail('query_param_name', 'must be a string, or null to clear it'),
  query_param_required: bool('query_param_required'),
  enabled: bool('enabled'),
  paused: bool('paused'),
  inbound_auth: (raw, stored) => withKeeps(resolveInboundAuthKeeps(raw, stored), (v) => validateInboundAuth(v)),
  required_headers: (raw) => validateRequiredHeaders(raw),
  body_filters: (raw) => validateBodyFilters(raw),
  field_rules: (raw) => validateFieldRules(raw),
  contracts: (raw) => (raw === null ? ok(null) : validateContracts(raw)),
  // a list left out means empty, so `{ "deny": [...] }` alone is enough
  ip_access: (raw) => validateIpAccessLists(isRecord(raw) ? { allow: [], deny: [], ...raw } : raw),
  captcha: (raw, stored) =>
    raw === null ? ok(null) : withKeeps(resolveCaptchaKeep(raw, stored), (v) => validateCaptchaSettings(v)),
  rate_limit_per_minute: (raw) => (raw === null ? ok(null) : validateRateLimit(raw)),
  maintenance_windows: (raw) => validateMaintenanceWindows(raw),
};

/**
 * Validates the settings a create or update sends: only the fields given (`name` is required on
 * create), each with its own validator; every problem is reported at once. Unknown fields and
 * read-only response fields are refused by name. `stored` holds the secrets an update may keep
 * (null on create). Secrets in the result are plaintext; they are sealed before storing.
 */
export function validateEndpointInput(
  input: unknown,
  mode: 'create' | 'update',
  stored: StoredSecrets | null,
): Validation<Partial<EndpointSettings>> {
  if (!isRecord(input)) return fail('(body)', 'must be a JSON object');
  const errors = fieldNameErrors(input, SETTING_NAMES, READ_ONLY_FIELDS);
  const out: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    if (input[name] === undefined) {
      if (mode === 'create' && name === 'name') errors.push({ field: 'name', message: 'is required' });
      continue;
    }
    const result = (VALIDATORS[name] as Validator<SettingName>)(input[name], stored);
    if (result.ok) out[name] = result.value;
    else errors.push(...result.errors);
  }
  return errors.length > 0 ? { ok: false, errors } : ok(out as Partial<EndpointSettings>);
}
