import { pauseState } from '@relay/endpoints';
import type { EndpointRecord } from '@relay/store';
import { settingsOf } from './endpoint-settings';
import { redactedCaptcha, redactedInboundAuth } from './secret-sealing';
import type { Sealer } from './secret-sealing';

/**
 * Spec "States and transitions", as the ingest URL sees the endpoint right now: disabled (404,
 * no activity row), paused by a manual pause or an active maintenance window (503
 * endpoint_unavailable), or enabled. Senders never learn the cause; the owner does.
 */
export type Availability =
  | { state: 'enabled' }
  | { state: 'disabled' }
  | { state: 'paused'; paused_by: 'manual' | 'maintenance_window'; resumes_at: string | null };

export function availabilityOf(
  e: Pick<EndpointRecord, 'enabled' | 'paused' | 'maintenance_windows'>,
  now: Date,
): Availability {
  if (!e.enabled) return { state: 'disabled' };
  const p = pauseState({ paused: e.paused, maintenance_windows: e.maintenance_windows ?? [] }, now);
  if (!p.paused) return { state: 'enabled' };
  return { state: 'paused', paused_by: p.reason, resumes_at: p.resumesAt ? p.resumesAt.toISOString() : null };
}

export interface ViewOptions {
  publicBaseUrl: string;
  secrets: Sealer;
  now: Date;
  /** show `last4` of long secrets; false for viewer keys, which see no part of any secret */
  secretHints?: boolean;
}

/** `{ set: true, last4 }` → `{ set: true }` everywhere in a redacted setting. */
function withoutHints<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutHints) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'last4')
      .map(([k, v]) => [k, withoutHints(v)]),
  ) as T;
}

/**
 * The response form of an endpoint. Fields are listed one by one, so a field added to the
 * record later is not shown until someone decides it may be; secrets are redacted.
 */
export function endpointView(e: EndpointRecord, opts: ViewOptions): Record<string, unknown> {
  const s = settingsOf(e);
  return {
    id: e.id,
    name: s.name,
    ingest_url: `${opts.publicBaseUrl.replace(/\/$/, '')}/relay/${e.id}`,
    enabled: s.enabled,
    paused: s.paused,
    availability: availabilityOf(s, opts.now),
    methods: s.methods,
    payload_format: s.payload_format,
    query_param_name: s.query_param_name,
    query_param_required: s.query_param_required,
    inbound_auth:
      opts.secretHints === false
        ? withoutHints(redactedInboundAuth(s.inbound_auth, opts.secrets))
        : redactedInboundAuth(s.inbound_auth, opts.secrets),
    required_headers: s.required_headers,
    body_filters: s.body_filters,
    field_rules: s.field_rules,
    contracts: s.contracts,
    ip_access: s.ip_access,
    captcha: redactedCaptcha(s.captcha),
    rate_limit_per_minute: s.rate_limit_per_minute,
    maintenance_windows: s.maintenance_windows,
    revision: e.revision ?? 1,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}
