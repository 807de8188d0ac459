import { Schema } from 'mongoose';
import { API_KEY_ROLES } from '../records';

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
    /** absent on keys made before roles existed: those are owner keys (docs/management-api.md) */
    role: { type: String, enum: API_KEY_ROLES },
    /** a label the creator chose, e.g. "CI deploys"; null when none */
    name: { type: String, default: null },
    /** the prefix of the key that created this one; null for keys the bootstrap command made */
    created_by: { type: String, default: null },
    created_at: { type: Date, required: true },
    /** updated at most once a minute per key (adapters/api-keys.ts in the management API) */
    last_used_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'api_keys' },
);
