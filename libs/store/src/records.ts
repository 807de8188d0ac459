/**
 * Plain record types of the stored resources. Domain code works with these, never with
 * mongoose documents, so it can be tested with in-memory fakes.
 */
import type { PayloadFormat } from '@relay/endpoints';

export const INBOUND_AUTH_TYPES = ['NONE', 'BASIC', 'BEARER', 'API_KEY', 'HMAC'] as const;
export type InboundAuthType = (typeof INBOUND_AUTH_TYPES)[number];

export interface InboundAuth {
  type: InboundAuthType;
  /** type-specific settings; secrets inside are encrypted at rest */
  config?: Record<string, unknown>;
}

export interface EndpointRecord {
  id: string;
  account_id: string;
  name: string;
  enabled: boolean;
  paused: boolean;
  methods: string[];
  payload_format: PayloadFormat;
  inbound_auth: InboundAuth;
  created_at: Date;
  updated_at: Date;
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
  created_at: Date;
  updated_at: Date;
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
  state: 'delivered' | 'retrying' | 'failed';
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  next_attempt_at: Date | null;
}

export interface DeliveryRecord {
  delivery_id: string;
  target_id: string;
  target_kind: string;
  state: 'delivered' | 'retrying' | 'failed';
  attempts: DeliveryAttemptRecord[];
}

export interface ActivityRecord {
  /** the event id */
  id: string;
  account_id: string;
  endpoint_id: string;
  received_at: Date;
  method: string;
  source_ip: string;
  outcome: string;
  reason: string | null;
  target_count: number;
  test: boolean;
  status: StatusGroup;
  deliveries: DeliveryRecord[];
}
