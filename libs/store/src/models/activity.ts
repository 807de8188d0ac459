import { Schema } from 'mongoose';

/**
 * One document per request (`_id` = event id), or per aggregated flood of identical rejections
 * (`_id` = `agg_…`). Delivery outcomes are kept under `deliveries.<delivery_id>.attempts.<n>` so
 * attempts reported in any order land on the same row; `status` is derived from them by the
 * activity-writer. No secondary index: the log is only ever read by `_id` (activity/keys.ts),
 * and an index the reads do not use would only slow every insert.
 */
export const activitySchema = new Schema(
  {
    _id: { type: String, required: true },
    account_id: { type: String },
    endpoint_id: { type: String },
    received_at: { type: Date },
    method: { type: String },
    source_ip: { type: String },
    outcome: { type: String },
    reason: { type: String, default: null },
    target_count: { type: Number },
    test: { type: Boolean },
    status: { type: String },
    deliveries: { type: Schema.Types.Mixed },
    last_error: { type: String, default: null },
    aggregate: { type: Schema.Types.Mixed, default: null },
    ixg: { type: String, default: null },
  },
  { versionKey: false, collection: 'activity', minimize: false, strict: false },
);
