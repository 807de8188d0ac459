import { HMAC_PRESETS, INBOUND_AUTH_TYPES } from '../../../../../libs/endpoints/src/auth/types';

/**
 * The endpoint settings form's model: a draft made from the API's endpoint view, and the PATCH
 * body made from the draft (docs/management-api.md "Settings", "PATCH", "Keeping a stored
 * secret"). Pure, so test/unit/dashboard checks it without a browser.
 */
export const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'GET', 'HEAD'] as const;
export const PAYLOAD_FORMATS = ['json', 'form', 'xml', 'text', 'none', 'query', 'query_base64_json'] as const;
export const PAYLOAD_FORMAT_LABELS: Record<string, string> = {
  json: 'JSON',
  form: 'Form (application/x-www-form-urlencoded)',
  xml: 'XML',
  text: 'Plain text',
  none: 'None (ignore body)',
  query: 'Query parameters',
  query_base64_json: 'Query parameters (Base64 JSON)',
};
// the same lists as @relay/endpoints (test/unit/dashboard/settings.test.ts keeps them equal)
export const BODY_FILTER_KINDS = ['contains', 'not_contains', 'equals', 'regex', 'not_regex'] as const;
export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array'] as const;
export const CAPTCHA_PROVIDERS = ['hcaptcha', 'recaptcha', 'turnstile'] as const;
export { HMAC_PRESETS, INBOUND_AUTH_TYPES };

/** One secret slot: a stored one kept (by its slot number), or a new value typed in. */
export interface SecretSlot {
  keep: number | null;
  hint: string;
  value: string;
  username: string;
}

export interface AuthDraft {
  type: string;
  header: string;
  preset: string;
  tolerance: string;
  custom: string;
  slots: SecretSlot[];
  /** HMAC: dedup on the provider's delivery id — '' the preset's default, or on/off */
  dedup: '' | 'on' | 'off';
  dedupWindow: string;
  /** Meta presets: a new hub.verify_token (write-only: the stored one is never shown) */
  verifyToken: string;
  verifyTokenStored: boolean;
  /** the stored type: only its slots can be kept */
  storedType: string;
  touched: boolean;
}

export interface SettingsDraft {
  name: string;
  methods: string[];
  payload_format: string;
  query_param_name: string;
  query_param_required: boolean;
  auth: AuthDraft;
  required_headers: Array<{ name: string; value: string }>;
  body_filters: Array<{ kind: string; text: string; case_insensitive: boolean }>;
  field_rules: Array<{ path: string; type: string; required: boolean; pattern: string }>;
  ip_allow: string;
  ip_deny: string;
  captcha: {
    on: boolean;
    provider: string;
    keep: boolean;
    secret: string;
    verify_url: string;
    field: string;
    touched: boolean;
    stored: boolean;
  };
  rate_limit: string;
}

type View = Record<string, any>;

const SLOT_LIST: Record<string, string> = { BEARER: 'tokens', API_KEY: 'keys', HMAC: 'secrets', BASIC: 'credentials' };

export function authSlotsOf(auth: View): SecretSlot[] {
  const list = SLOT_LIST[auth.type as string];
  const stored = (list ? (auth[list] as View[] | undefined) : undefined) ?? [];
  return stored.map((s, i) =>
    auth.type === 'BASIC'
      ? {
          keep: i,
          hint: s.password?.last4 ? `…${s.password.last4}` : 'set',
          value: '',
          username: String(s.username ?? ''),
        }
      : { keep: i, hint: s.last4 ? `…${s.last4}` : 'set', value: '', username: '' },
  );
}

export function draftOf(ep: View): SettingsDraft {
  const auth = ep.inbound_auth as View;
  return {
    name: ep.name,
    methods: [...ep.methods],
    payload_format: ep.payload_format,
    query_param_name: ep.query_param_name ?? '',
    query_param_required: ep.query_param_required ?? true,
    auth: {
      type: auth.type,
      header: auth.header ?? '',
      preset: auth.preset ?? 'github',
      tolerance:
        auth.tolerance_seconds === undefined || auth.tolerance_seconds === null ? '' : String(auth.tolerance_seconds),
      custom: auth.custom ? JSON.stringify(auth.custom, null, 2) : '',
      slots: authSlotsOf(auth),
      dedup: auth.dedup?.enabled === true ? 'on' : auth.dedup?.enabled === false ? 'off' : '',
      dedupWindow: auth.dedup?.window_seconds === undefined ? '' : String(auth.dedup.window_seconds),
      verifyToken: '',
      verifyTokenStored: auth.verify_token !== undefined,
      storedType: auth.type,
      touched: false,
    },
    required_headers: (ep.required_headers as View[]).map((h) => ({ name: h.name, value: h.value ?? '' })),
    body_filters: (ep.body_filters as View[]).map((f) => ({
      kind: f.kind,
      text: String(f.value ?? f.pattern ?? ''),
      case_insensitive: Boolean(f.case_insensitive),
    })),
    field_rules: (ep.field_rules as View[]).map((r) => ({
      path: r.path,
      type: r.type ?? '',
      required: Boolean(r.required),
      pattern: r.pattern ?? '',
    })),
    ip_allow: (ep.ip_access.allow as string[]).join('\n'),
    ip_deny: (ep.ip_access.deny as string[]).join('\n'),
    captcha: ep.captcha
      ? {
          on: true,
          provider: ep.captcha.provider,
          keep: true,
          secret: '',
          verify_url: ep.captcha.verify_url ?? '',
          field: ep.captcha.field ?? '',
          touched: false,
          stored: true,
        }
      : {
          on: false,
          provider: 'turnstile',
          keep: false,
          secret: '',
          verify_url: '',
          field: '',
          touched: false,
          stored: false,
        },
    rate_limit: ep.rate_limit_per_minute === null ? '' : String(ep.rate_limit_per_minute),
  };
}

const lines = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

function secretOf(slot: SecretSlot): unknown {
  return slot.keep !== null ? { keep: slot.keep } : slot.value;
}

export function authBody(d: AuthDraft): Record<string, unknown> {
  switch (d.type) {
    case 'BEARER':
      return { type: 'BEARER', tokens: d.slots.map(secretOf) };
    case 'API_KEY':
      return { type: 'API_KEY', header: d.header, keys: d.slots.map(secretOf) };
    case 'BASIC':
      return { type: 'BASIC', credentials: d.slots.map((s) => ({ username: s.username, password: secretOf(s) })) };
    case 'HMAC': {
      const body: Record<string, unknown> = { type: 'HMAC', preset: d.preset, secrets: d.slots.map(secretOf) };
      if (d.tolerance.trim() !== '') body.tolerance_seconds = Number(d.tolerance);
      if (d.preset === 'custom') body.custom = parseJson(d.custom);
      const dedup: Record<string, unknown> = {};
      if (d.dedup !== '') dedup.enabled = d.dedup === 'on';
      if (d.dedupWindow.trim() !== '') dedup.window_seconds = Number(d.dedupWindow);
      if (Object.keys(dedup).length > 0) body.dedup = dedup;
      // verify_token has no keep placeholder: a write of inbound_auth carries it again or drops it
      if (d.verifyToken !== '') body.verify_token = d.verifyToken;
      return body;
    }
    default:
      return { type: d.type };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // sent as is: the API names the field and says what it must be
  }
}

/** Every setting as the form would store it; the secrets only when their editor was touched. */
export function settingsBody(d: SettingsDraft): Record<string, unknown> {
  const base64 = d.payload_format === 'query_base64_json';
  const body: Record<string, unknown> = {
    name: d.name,
    methods: d.methods,
    payload_format: d.payload_format,
    required_headers: d.required_headers.map((h) =>
      h.value === '' ? { name: h.name } : { name: h.name, value: h.value },
    ),
    body_filters: d.body_filters.map((f) => {
      const pattern = f.kind === 'regex' || f.kind === 'not_regex';
      return {
        kind: f.kind,
        [pattern ? 'pattern' : 'value']: f.text,
        ...(f.case_insensitive ? { case_insensitive: true } : {}),
      };
    }),
    field_rules: d.field_rules.map((r) => ({
      path: r.path,
      ...(r.type ? { type: r.type } : {}),
      ...(r.required ? { required: true } : {}),
      ...(r.pattern ? { pattern: r.pattern } : {}),
    })),
    ip_access: { allow: lines(d.ip_allow), deny: lines(d.ip_deny) },
    rate_limit_per_minute: d.rate_limit.trim() === '' ? null : Number(d.rate_limit),
  };
  if (base64) {
    body.query_param_name = d.query_param_name;
    body.query_param_required = d.query_param_required;
  }
  if (d.auth.touched) body.inbound_auth = authBody(d.auth);
  if (d.captcha.touched || (d.captcha.stored && !d.captcha.on)) {
    body.captcha = d.captcha.on
      ? {
          provider: d.captcha.provider,
          secret: d.captcha.keep && d.captcha.stored ? { keep: 0 } : d.captcha.secret,
          ...(d.captcha.verify_url ? { verify_url: d.captcha.verify_url } : {}),
          ...(d.captcha.field ? { field: d.captcha.field } : {}),
        }
      : null;
  }
  return body;
}

/** Only what differs from the stored endpoint: a PATCH replaces each named setting whole. */
export function changedSettings(stored: View, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (
      k === 'inbound_auth' ||
      k === 'captcha' ||
      JSON.stringify(normalize(stored[k])) !== JSON.stringify(normalize(v))
    )
      out[k] = v;
  }
  return out;
}

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined && x !== null && x !== false)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, normalize(x)]),
    );
  }
  return v;
}
