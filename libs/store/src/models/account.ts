import { Schema } from 'mongoose';

export const accountSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    plan: {
      name: { type: String, required: true },
      monthly_accepted_events: { type: Number, required: true },
      payload_limit_bytes: { type: Number, required: true },
    },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'accounts' },
);

/**
 * Management API keys are stored as SHA-256 digests: a leaked database does not leak keys,
 * and a key is looked up by its digest in one indexed query.
 */
export const apiKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true, index: true },
    /** hex SHA-256 of the whole key */
    digest: { type: String, required: true, unique: true },
    /** first characters, shown so a user can tell keys apart */
    prefix: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'api_keys' },
);
