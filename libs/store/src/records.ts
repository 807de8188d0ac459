/**
 * Plain record types of the stored resources. Domain code works with these, never with
 * mongoose documents, so it can be tested with in-memory fakes.
 */
import type {
  ActivityAlert,
  AttemptOrderingNote,
  AttemptTransformNote,
  DeliveryState,
  KeptResponse,
  QuarantineState,
} from '@relay/contracts';
import type {
  BodyFilter,
  CaptchaSettings,
  FieldRule,
  InboundAuthSetting,
  IpAccessLists,
  MaintenanceWindow,
  PayloadContracts,
  PayloadFormat,
  RequiredHeader,
  Routing,
} from '@relay/endpoints';

/**
 * An endpoint as stored. Settings are validated by `@relay/endpoints` when saved; secret
 * values inside `inbound_auth` and `captcha` are stored sealed (`enc:v1:…`, see
 * @relay/secrets) and opened only by the gateway that verifies them.
 */
export interface EndpointRecord {
  id: string;
  account_id: string;
  name: string;
  enabled: boolean;
  paused: boolean;
  methods: string[];
  payload_format: PayloadFormat;
  inbound_auth: InboundAuthSetting;
  required_headers: RequiredHeader[];
  body_filters: BodyFilter[];
  field_rules: FieldRule[];
  /** JSON Schemas the payload is checked with (docs/contracts.md); null or absent: none */
  contracts?: PayloadContracts | null;
  ip_access: IpAccessLists;
  captcha: CaptchaSettings | null;
  /** null: the documented default (DEFAULT_RATE_LIMIT_PER_MINUTE) */
  rate_limit_per_minute: number | null;
  /** Base64 JSON format only */
  query_param_name: string | null;
  query_param_required: boolean;
  maintenance_windows: MaintenanceWindow[];
  /** bumped on every change; caches of compiled rules are keyed by it */
  revision: number;
  created_at: Date;
  updated_at: Date;
}

/** What a management API key may do, least to most (docs/management-api.md "Roles"). */
export const API_KEY_ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

/** Endpoint actions a user made by hand (spec: recorded; scheduled pauses are not). */
export const ENDPOINT_AUDIT_ACTIONS = ['enabled', 'disabled', 'paused', 'resumed'] as const;
/** Every other change of an endpoint's configuration: its settings (which fields, never their values) and its targets. */
const CONFIG_AUDIT_ACTIONS = [
  'endpoint_created',
  'endpoint_updated',
  'endpoint_deleted',
  'target_created',
  'target_updated',
  'target_deleted',
  'target_flag_cleared',
  'target_paused',
  'target_resumed',
  'transformation_saved',
  'transformation_restored',
  'transformation_removed',
] as const;
/** Account actions: API keys created and revoked, the plan changed, alert rules changed and tested, members and the identity provider. */
const ACCOUNT_AUDIT_ACTIONS = [
  'key_created',
  'key_revoked',
  'plan_changed',
  'alert_rule_created',
  'alert_rule_updated',
  'alert_rule_deleted',
  'alert_test_sent',
  'member_invited',
  'invitation_revoked',
  'member_joined',
  'member_removed',
  'identity_provider_set',
  'identity_provider_removed',
] as const;
export const AUDIT_ACTIONS = [...ENDPOINT_AUDIT_ACTIONS, ...CONFIG_AUDIT_ACTIONS, ...ACCOUNT_AUDIT_ACTIONS] as const;

/** One audit row: a change of configuration made through the management API (or by the operator's commands). */
export interface AuditRecord {
  id: string;
  account_id: string;
  /** set on endpoint actions only */
  endpoint_id?: string;
  action: (typeof AUDIT_ACTIONS)[number];
  /** the API key prefix that made the change (`operator` for the plan command) */
  actor: string;
  /** the name of that API key (null: unnamed, or the operator) */
  actor_name?: string | null;
  /** the address the request came from (null: the operator's commands) */
  source_ip?: string | null;
  at: Date;
  /** key actions: the key created or revoked */
  key_id?: string;
  /** what changed, never a secret: the fields of a settings change (names only), the target, the key's role and prefix, the plan before and after */
  details?: Record<string, unknown>;
}

export interface TargetRecord {
  id: string;
  account_id: string;
  endpoint_id: string;
  /** registry key of the target kind, e.g. `webhook` */
  kind: string;
  name: string;
  enabled: boolean;
  config: Record<string, unknown>;
  /** set when deliveries showed the destination is gone (410, unknown webhook, …) */
  flagged: { reason: string; at: Date } | null;
  /** delays between attempts in ms; null or absent = the kind's default (docs/delivery.md) */
  retry_schedule_ms?: number[] | null;
  /** delivery limits (rate, in flight); null or absent = the kind's default (docs/delivery-limits.md) */
  limits?: { rate: number | null; per: 'second' | 'minute'; max_in_flight: number | null } | null;
  /** circuit-breaker settings; null or absent = the defaults */
  breaker?: {
    failure_rate_pct: number;
    min_attempts: number;
    window_s: number;
    cool_down_s: number;
    flag_after_open_s: number;
  } | null;
  /**
   * The breaker's state as its last transition wrote it (the state itself lives in Redis; this
   * copy is what the API shows and what tells a deliverer's cache to check before sending).
   * null or absent: closed.
   */
  breaker_state?: BreakerStateRecord | null;
  /** which events the target gets (docs/routing.md); null or absent = every event */
  routing?: Routing | null;
  /** where each event's ordering key comes from (docs/ordering.md); null or absent = no ordering */
  ordering?: { key: { from: 'path'; path: string } | { from: 'header'; header: string } } | null;
  created_at: Date;
  updated_at: Date;
}

export const BREAKER_STATES = ['closed', 'open', 'half_open', 'paused'] as const;
export type BreakerStateName = (typeof BREAKER_STATES)[number];

export interface BreakerStateRecord {
  state: BreakerStateName;
  since: Date;
  reason: string;
  /** the transition's number in Redis: an older transition never overwrites a newer one */
  seq: number;
}

export interface PlanLimits {
  name: string;
  monthly_accepted_events: number;
  payload_limit_bytes: number;
}

export interface AccountRecord {
  id: string;
  name: string;
  plan: PlanLimits;
  created_at: Date;
}

export const STATUS_GROUPS = ['completed', 'pending', 'errors'] as const;
export type StatusGroup = (typeof STATUS_GROUPS)[number];

export interface DeliveryAttemptRecord {
  attempt: number;
  attempted_at: Date;
  state: DeliveryState;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  next_attempt_at: Date | null;
  /** what the target answered, capped (@relay/contracts KeptResponse); absent without an HTTP answer */
  response?: KeptResponse;
  /** the transformation versions that ran and their console lines; absent when none ran */
  transform?: AttemptTransformNote;
  /** requests sent again inside the attempt (ActivityAttemptV1 `resends`); absent when none */
  resends?: number;
  /** the attempt of a stuck ordering key's head: the key and when it was found stuck (ActivityAttemptV1 `ordering`) */
  ordering?: AttemptOrderingNote;
}

export interface DeliveryRecord {
  delivery_id: string;
  target_id: string;
  target_kind: string;
  state: DeliveryState;
  attempts: DeliveryAttemptRecord[];
}

export interface ActivityRecord {
  /** the event id, or `agg_…` for an aggregated row */
  id: string;
  account_id: string;
  endpoint_id: string;
  /** the first attempt's time while the row has no request record (`outcome` null) */
  received_at: Date;
  /**
   * null while the row has no request record: its deliveries' attempts reached the log before
   * the gateway's record of the request (one the broker did not take is published again later)
   */
  method: string | null;
  /** null on aggregated rows (spec: the source IP is shown for rows that are not aggregated) */
  source_ip: string | null;
  /** null while the row has no request record (as `method`) */
  outcome: string | null;
  reason: string | null;
  target_count: number;
  test: boolean;
  status: StatusGroup;
  /** the latest delivery error (what the error-text filter reads with `reason`) */
  last_error: string | null;
  /** set on a row that stands for a flood of identical rejections (no source IP of its own) */
  aggregate: ActivityAggregate | null;
  deliveries: DeliveryRecord[];
  /** enabled targets the event's payload was not routed to (docs/routing.md); absent when none */
  not_routed?: string[];
  /** the alert a row of Relay's own delivers (docs/alerts.md); absent on senders' requests */
  alert?: ActivityAlert;
  /** a refusal after authentication: its request kept for a re-run, or not (docs/ingest.md "Quarantine") */
  quarantine?: QuarantineState;
  /** the quarantined request this one re-ran */
  rerun_of?: string;
  /** accepted in contract `mark` mode though its payload failed: what failed (docs/contracts.md) */
  contract_violation?: string;
}

/** An aggregated row: `count` identical rejections (endpoint, outcome, reason) in one minute. */
interface ActivityAggregate {
  count: number;
  first_seen: Date;
  last_seen: Date;
}
