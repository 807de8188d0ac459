import { Schema } from 'mongoose';
import { PAYLOAD_FORMATS } from '@relay/endpoints';
import { INBOUND_AUTH_TYPES } from '../records';

export const endpointSchema = new Schema(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true, index: true },
    name: { type: String, required: true },
    enabled: { type: Boolean, required: true, default: true },
    paused: { type: Boolean, required: true, default: false },
    methods: { type: [String], required: true },
    payload_format: { type: String, enum: PAYLOAD_FORMATS, required: true },
    inbound_auth: {
      type: { type: String, enum: INBOUND_AUTH_TYPES, required: true },
      config: { type: Schema.Types.Mixed },
    },
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
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'targets', minimize: false },
);
