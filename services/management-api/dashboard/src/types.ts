/** The API's objects as the dashboard reads them (docs/management-api.md). */
export interface Availability {
  state: 'enabled' | 'paused' | 'disabled';
  paused_by?: 'manual' | 'maintenance_window';
  resumes_at?: string | null;
}

export interface Endpoint {
  id: string;
  name: string;
  ingest_url: string;
  enabled: boolean;
  paused: boolean;
  availability: Availability;
  methods: string[];
  payload_format: string;
  query_param_name: string | null;
  query_param_required: boolean;
  inbound_auth: InboundAuthView;
  required_headers: Array<{ name: string; value?: string | null }>;
  body_filters: Array<Record<string, unknown>>;
  field_rules: Array<Record<string, unknown>>;
  ip_access: { allow: string[]; deny: string[] };
  captcha: { provider: string; secret: SecretView; verify_url?: string; field?: string } | null;
  rate_limit_per_minute: number | null;
  maintenance_windows: Array<{ starts_at: string; ends_at: string }>;
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface SecretView {
  set: true;
  last4?: string;
}

export interface InboundAuthView {
  type: 'NONE' | 'BASIC' | 'BEARER' | 'API_KEY' | 'HMAC';
  tokens?: SecretView[];
  keys?: SecretView[];
  header?: string;
  secrets?: SecretView[];
  preset?: string;
  tolerance_seconds?: number;
  custom?: Record<string, unknown>;
  credentials?: Array<{ username: string; password: SecretView }>;
}

export interface AuditRow {
  id: string;
  endpoint_id: string | null;
  action: 'paused' | 'resumed' | 'disabled' | 'enabled' | string;
  /** the API key's prefix (a session's key), or `operator` */
  actor: string;
  actor_name: string | null;
  source_ip: string | null;
  at: string;
  key_id: string | null;
  /** what changed: field names, the target; never a secret's value */
  details: Record<string, unknown> | null;
}

export interface Target {
  id: string;
  endpoint_id: string;
  /** one of the kinds `GET /v1/target-kinds` lists */
  kind: string;
  name: string;
  enabled: boolean;
  config: Record<string, unknown>;
  flagged: { reason: string; at: string } | null;
  retry_schedule_ms: number[] | null;
  default_retry_schedule_ms: number[] | null;
  limits: TargetLimits | null;
  default_limits: TargetLimits | null;
  breaker: Record<string, number> | null;
  /** the circuit breaker (docs/delivery-limits.md): closed sends; open / half_open / paused hold deliveries */
  breaker_state: { state: 'closed' | 'open' | 'half_open' | 'paused'; since: string; reason: string };
  created_at: string;
  updated_at: string;
}

export interface TargetLimits {
  rate: number | null;
  per: 'second' | 'minute';
  max_in_flight: number | null;
}

export interface Me {
  account_id: string;
  key_prefix: string;
  role: string;
  csrf_token: string;
  expires_at: string;
}

/**
 * One setting of a target kind's config as `GET /v1/target-kinds` describes it (libs/targets
 * describe/): the forms and the summary are drawn from these, never from a list of kinds.
 */
export interface KindField {
  name: string;
  type: 'string' | 'boolean' | 'integer' | 'enum' | 'object' | 'list' | 'variant';
  label: string;
  help?: string;
  example?: unknown;
  required: boolean;
  /** true: write-only, shown as set; `{ when }`: so when that sibling switch is on */
  credential: boolean | { when: string };
  default?: unknown;
  /** the setting is the target's own field (its name): not asked twice */
  same_as?: 'name';
  min_length?: number;
  max_length?: number;
  multiline?: boolean;
  format?: 'email' | 'url';
  const?: boolean;
  minimum?: number;
  maximum?: number;
  values?: Array<{ value: string; label: string }>;
  fields?: KindField[];
  items?: KindField;
  max_items?: number;
  tag?: string;
  variants?: Array<{ value: string; label: string; fields: KindField[] }>;
}

export interface TargetKindInfo {
  kind: string;
  channel: string;
  label: string;
  help?: string;
  default_retry_schedule_ms: number[];
  fields: KindField[];
}

export interface TargetKinds {
  /** the settings every target has (name, enabled, retry schedule) */
  target_fields: KindField[];
  data: TargetKindInfo[];
}
