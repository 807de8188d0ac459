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
  endpoint_id: string;
  action: 'paused' | 'resumed' | 'disabled' | 'enabled' | string;
  actor: string;
  at: string;
}

export interface Target {
  id: string;
  endpoint_id: string;
  kind: 'webhook' | 'embed_chat' | 'block_chat' | string;
  name: string;
  enabled: boolean;
  config: Record<string, unknown>;
  flagged: { reason: string; at: string } | null;
  retry_schedule_ms: number[] | null;
  default_retry_schedule_ms: number[] | null;
  created_at: string;
  updated_at: string;
}

export interface Me {
  account_id: string;
  key_prefix: string;
  role: string;
  csrf_token: string;
  expires_at: string;
}
