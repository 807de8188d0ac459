import { FORMAT_FEATURES, methodAllowedForFormat, validatePayloadSettings } from '@relay/endpoints';
import type { FieldError } from '@relay/contracts';
import { settingDefaults } from './endpoint-settings';
import type { EndpointSettings } from './endpoint-settings';

/** Settings holding secrets, which are stored sealed and cannot be compared with what was sent. */
const SEALED = new Set<keyof EndpointSettings>(['inbound_auth', 'captcha']);

/**
 * The settings as they will be stored: the current ones (defaults on create) with the changes
 * applied. When the format is not Base64 JSON, a stored `query_param_name` /
 * `query_param_required` the client did not send is reset, so switching the format away does
 * not fail on a leftover; sent explicitly, they are refused by `checkCombination`.
 * Returns the merged settings and the changes to write: a sent value equal to the stored one is
 * no change (secret-bearing settings always are one: their stored form is sealed, and re-sealing
 * what was sent is the point of sending it).
 */
export function mergeSettings(
  current: EndpointSettings | null,
  sent: Partial<EndpointSettings>,
): { merged: EndpointSettings; changes: Partial<EndpointSettings> } {
  const base: EndpointSettings = current ?? { name: '', ...settingDefaults() };
  const changes: Partial<EndpointSettings> = {};
  for (const [key, value] of Object.entries(sent) as [keyof EndpointSettings, unknown][]) {
    if (current === null || SEALED.has(key) || JSON.stringify(value) !== JSON.stringify(current[key]))
      Object.assign(changes, { [key]: value });
  }
  const merged = { ...base, ...sent };
  if (merged.payload_format !== 'query_base64_json') {
    if (sent.query_param_name === undefined && merged.query_param_name !== null)
      merged.query_param_name = changes.query_param_name = null;
    if (sent.query_param_required === undefined && merged.query_param_required !== true)
      merged.query_param_required = changes.query_param_required = true;
  }
  return { merged, changes };
}

/**
 * Rules that involve several settings, checked on the merged settings (so a PATCH of one field
 * is checked against the stored others):
 * - spec "Ingest / method": GET and HEAD only with None, Query Parameters and Base64 JSON;
 * - spec "Endpoint / query parameter name": required for Base64 JSON, refused for other formats;
 * - a setting the format switches off (spec "Feature interaction", `FORMAT_FEATURES`) is refused
 *   rather than kept silently ineffective: captcha outside JSON/form/XML, field rules with None
 *   or plain text, body filters with None.
 */
export function checkCombination(merged: EndpointSettings, sent: Partial<EndpointSettings>): FieldError[] {
  const errors: FieldError[] = [];
  const format = merged.payload_format;
  const refused = merged.methods.filter((m) => !methodAllowedForFormat(m, format));
  if (refused.length > 0) {
    errors.push({
      field: 'methods',
      message: `${refused.join(' and ')} may be used only with the payload formats none, query and query_base64_json (this endpoint uses ${format})`,
    });
  }
  const payload: Record<string, unknown> = { payload_format: format };
  if (format === 'query_base64_json') {
    if (merged.query_param_name !== null) payload.query_param_name = merged.query_param_name;
    payload.query_param_required = merged.query_param_required;
  } else {
    if (sent.query_param_name !== undefined && sent.query_param_name !== null)
      payload.query_param_name = sent.query_param_name;
    if (sent.query_param_required !== undefined) payload.query_param_required = sent.query_param_required;
  }
  const checked = validatePayloadSettings(payload);
  if (!checked.ok) errors.push(...checked.errors);
  const features = FORMAT_FEATURES[format];
  if (merged.captcha !== null && !features.captcha) {
    errors.push({
      field: 'captcha',
      message: `has no effect with payload format ${format} (captcha reads a JSON, form or XML body); remove it with null or change the format`,
    });
  }
  if (merged.field_rules.length > 0 && features.fieldValidation === 'disabled') {
    errors.push({
      field: 'field_rules',
      message: `have no effect with payload format ${format} (its payload has no fields); remove them with [] or change the format`,
    });
  }
  if (merged.contracts && features.fieldValidation === 'disabled') {
    errors.push({
      field: 'contracts',
      message: `have no effect with payload format ${format} (its payload has no fields); remove them with null or change the format`,
    });
  }
  if (merged.body_filters.length > 0 && features.bodyFilters === 'none') {
    errors.push({
      field: 'body_filters',
      message:
        'have no effect with payload format none (the body is ignored); remove them with [] or change the format',
    });
  }
  return errors;
}
