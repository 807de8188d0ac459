import { PAYLOAD_FORMATS } from '@relay/endpoints';
import type { PayloadFormat } from '@relay/endpoints';
import type { InboundAuthSetting as InboundAuth } from '@relay/endpoints';
import type { FieldProblem } from '../transport/errors';

export const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'GET', 'HEAD'] as const;

/** Spec "Ingest": GET and HEAD may be used only with these formats. */
export const BODYLESS_FORMATS: readonly PayloadFormat[] = ['none', 'query', 'query_base64_json'];

export interface EndpointSettings {
  name: string;
  methods: string[];
  payload_format: PayloadFormat;
  enabled: boolean;
  paused: boolean;
  inbound_auth: InboundAuth;
}

const FIELDS = new Set(['name', 'methods', 'payload_format', 'enabled', 'paused', 'inbound_auth']);

type Result = { ok: true; value: Partial<EndpointSettings> } | { ok: false; errors: FieldProblem[] };

/**
 * Validates a create (all fields, defaults applied) or an update (only the fields given,
 * checked together with the stored ones by `checkCombination`). Every problem is reported
 * with the field it concerns.
 */
export function validateEndpointInput(input: unknown, mode: 'create' | 'update'): Result {
  const errors: FieldProblem[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, errors: [{ field: '(body)', message: 'must be a JSON object' }] };
  const raw = input as Record<string, unknown>;
  for (const key of Object.keys(raw)) if (!FIELDS.has(key)) errors.push({ field: key, message: 'unknown field' });
  const out: Partial<EndpointSettings> = {};

  if (raw.name !== undefined || mode === 'create') {
    if (typeof raw.name !== 'string' || raw.name.trim().length === 0 || raw.name.length > 200) errors.push({ field: 'name', message: 'must be a non-empty string of at most 200 characters' });
    else out.name = raw.name.trim();
  }
  if (raw.methods !== undefined) {
    if (!Array.isArray(raw.methods) || raw.methods.length === 0 || !raw.methods.every((m) => typeof m === 'string' && (METHODS as readonly string[]).includes(m.toUpperCase()))) {
      errors.push({ field: 'methods', message: `must be a non-empty list of ${METHODS.join(', ')}` });
    } else out.methods = [...new Set((raw.methods as string[]).map((m) => m.toUpperCase()))];
  } else if (mode === 'create') out.methods = ['POST'];
  if (raw.payload_format !== undefined) {
    if (!(PAYLOAD_FORMATS as readonly unknown[]).includes(raw.payload_format)) errors.push({ field: 'payload_format', message: `must be one of ${PAYLOAD_FORMATS.join(', ')}` });
    else out.payload_format = raw.payload_format as PayloadFormat;
  } else if (mode === 'create') out.payload_format = 'json';
  for (const flag of ['enabled', 'paused'] as const) {
    if (raw[flag] !== undefined) {
      if (typeof raw[flag] !== 'boolean') errors.push({ field: flag, message: 'must be true or false' });
      else out[flag] = raw[flag] as boolean;
    } else if (mode === 'create') out[flag] = flag === 'enabled';
  }
  if (raw.inbound_auth !== undefined) {
    const auth = raw.inbound_auth as { type?: unknown } | null;
    if (!auth || auth.type !== 'NONE') errors.push({ field: 'inbound_auth.type', message: 'only NONE is supported by this version' });
    else out.inbound_auth = { type: 'NONE' };
  } else if (mode === 'create') out.inbound_auth = { type: 'NONE' };
  return errors.length ? { ok: false, errors } : { ok: true, value: out };
}

/** Rules that involve several fields, checked on the settings as they will be stored. */
export function checkCombination(s: Pick<EndpointSettings, 'methods' | 'payload_format'>): FieldProblem[] {
  const bodyless = s.methods.filter((m) => m === 'GET' || m === 'HEAD');
  if (bodyless.length && !BODYLESS_FORMATS.includes(s.payload_format)) {
    return [{ field: 'methods', message: `${bodyless.join(' and ')} may be used only with the payload formats none, query and query_base64_json` }];
  }
  return [];
}
