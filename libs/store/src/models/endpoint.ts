import { Schema } from 'mongoose';
import { PAYLOAD_FORMATS } from '@relay/endpoints';
import { AUDIT_ACTIONS } from '../records';

export const endpointSchema = new Schema(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true, index: true },
    name: { type: String, required: true },
    enabled: { type: Boolean, required: true, default: true },
    paused: { type: Boolean, required: true, default: false },
    methods: { type: [String], required: true },
    payload_format: { type: String, enum: PAYLOAD_FORMATS, required: true },
    // nested settings are validated by @relay/endpoints before they are saved
    inbound_auth: { type: Schema.Types.Mixed, required: true },
    required_headers: { type: Schema.Types.Mixed, default: () => [] },
    body_filters: { type: Schema.Types.Mixed, default: () => [] },
    field_rules: { type: Schema.Types.Mixed, default: () => [] },
    contracts: { type: Schema.Types.Mixed, default: null },
    ip_access: { type: Schema.Types.Mixed, default: () => ({ allow: [], deny: [] }) },
    captcha: { type: Schema.Types.Mixed, default: null },
    rate_limit_per_minute: { type: Number, default: null },
    query_param_name: { type: String, default: null },
    query_param_required: { type: Boolean, default: true },
    maintenance_windows: { type: Schema.Types.Mixed, default: () => [] },
    revision: { type: Number, required: true, default: 1 },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'endpoints', minimize: false },
);

export const targetSchema = new Schema(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    endpoint_id: { type: String, required: true, index: true },
    kind: { type: String, required: true },
    name: { type: String, required: true },
    enabled: { type: Boolean, required: true, default: true },
    config: { type: Schema.Types.Mixed, required: true },
    flagged: { type: Schema.Types.Mixed, default: null },
    retry_schedule_ms: { type: Schema.Types.Mixed, default: null },
    limits: { type: Schema.Types.Mixed, default: null },
    breaker: { type: Schema.Types.Mixed, default: null },
    breaker_state: { type: Schema.Types.Mixed, default: null },
    routing: { type: Schema.Types.Mixed, default: null },
    ordering: { type: Schema.Types.Mixed, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'targets', minimize: false },
);

export const auditSchema = new Schema(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    /** the endpoint an endpoint action changed; absent on account rows (keys, plan) */
    endpoint_id: { type: String },
    action: { type: String, enum: AUDIT_ACTIONS, required: true },
    actor: { type: String, required: true },
    actor_name: { type: String, default: null },
    source_ip: { type: String, default: null },
    at: { type: Date, required: true },
    /** the API key a key action created or revoked */
    key_id: { type: String },
    /** what an account action changed (never a secret): the key's role and prefix, the plan before and after */
    details: { type: Schema.Types.Mixed },
  },
  { versionKey: false, collection: 'audit', minimize: false },
);
// the audit history of one endpoint, and of the whole account, is read newest first, paged on `at`
auditSchema.index({ endpoint_id: 1, at: -1 });
auditSchema.index({ account_id: 1, at: -1 });

/**
 * One document per endpoint revision ever written (`_id` = `<endpoint_id>:<revision>`). A
 * writer claims the revision it is about to write by inserting it; a unique `_id` insert is
 * exclusive even on FerretDB, whose conditional updates are not, so two management-api
 * processes can never both apply a change on top of the same revision.
 */
export const revisionClaimSchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'endpoint_revisions' },
);
