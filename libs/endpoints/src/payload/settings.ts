import { joinPath, schemaCheck } from '../rules/validation';
import type { FieldError, Validation } from '@relay/contracts';
import { PAYLOAD_FORMATS } from './formats';
import type { PayloadFormat } from './formats';

/**
 * The payload-format part of an endpoint. `query_param_name` and `query_param_required` are
 * the spec's "query parameter name" and "required parameter control", which exist only for
 * the Query Parameters (Base64 JSON) format.
 */
interface PayloadSettings {
  payload_format: PayloadFormat;
  query_param_name?: string;
  /** default true */
  query_param_required?: boolean;
}

type ResolvedPayloadSettings =
  | { payload_format: Exclude<PayloadFormat, 'query_base64_json'> }
  | { payload_format: 'query_base64_json'; query_param_name: string; query_param_required: boolean };

/** Spec "Limits": Base64 query parameter name length. */
export const MAX_QUERY_PARAM_NAME_LENGTH = 255;

const check = schemaCheck({
  type: 'object',
  properties: {
    payload_format: { enum: [...PAYLOAD_FORMATS] },
    query_param_name: { type: 'string' },
    query_param_required: { type: 'boolean' },
  },
  required: ['payload_format'],
  additionalProperties: false,
});

/**
 * Spec "Endpoint / query parameter name": required, at most 255 characters; no spaces, no
 * control characters, no `#`, no `?`. Other characters (`+`, `&`, `=`, `%`, non-ASCII) are
 * allowed: the sender percent-encodes them. "Spaces" covers every Unicode white space.
 */
function queryParamNameErrors(name: string, field = 'query_param_name'): FieldError[] {
  if (name.length === 0) return [{ field, message: 'is required for the Query Parameters (Base64 JSON) format' }];
  if ([...name].length > MAX_QUERY_PARAM_NAME_LENGTH)
    return [{ field, message: `must be at most ${MAX_QUERY_PARAM_NAME_LENGTH} characters` }];
  if (/\s/u.test(name)) return [{ field, message: 'must not contain spaces' }];
  if (/\p{Cc}/u.test(name)) return [{ field, message: 'must not contain control characters' }];
  if (/[#?]/.test(name)) return [{ field, message: 'must not contain # or ?' }];
  return [];
}

export function validatePayloadSettings(input: unknown, at = ''): Validation<ResolvedPayloadSettings> {
  const errors = check(input, at);
  if (errors.length > 0) return { ok: false, errors };
  const settings = input as PayloadSettings;
  const nameField = joinPath(at, 'query_param_name');
  if (settings.payload_format !== 'query_base64_json') {
    for (const key of ['query_param_name', 'query_param_required'] as const) {
      if (settings[key] !== undefined)
        errors.push({ field: joinPath(at, key), message: 'only applies to the Query Parameters (Base64 JSON) format' });
    }
    return errors.length > 0 ? { ok: false, errors } : { ok: true, value: { payload_format: settings.payload_format } };
  }
  errors.push(...queryParamNameErrors(settings.query_param_name ?? '', nameField));
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      payload_format: 'query_base64_json',
      query_param_name: settings.query_param_name!,
      query_param_required: settings.query_param_required ?? true,
    },
  };
}
