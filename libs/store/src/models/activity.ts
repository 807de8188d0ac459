import { Schema } from 'mongoose';

/**
 * One document per request (`_id` = event id). Delivery outcomes are kept under
 * `deliveries.<delivery_id>` so that attempts reported in any order, by any number of
 * writers, land with idempotent `$set`s; `status` is derived from them (see activity-writer).
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
    rev: { type: Number },
  },
  { versionKey: false, collection: 'activity', minimize: false, strict: false },
);
activitySchema.index({ account_id: 1, received_at: -1 });
activitySchema.index({ endpoint_id: 1, received_at: -1 });
