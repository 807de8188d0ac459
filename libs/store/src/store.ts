import mongoose from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { accountSchema, apiKeySchema } from './models/account';
import { activitySchema } from './models/activity';
import { auditSchema, endpointSchema, targetSchema } from './models/endpoint';
import type { AccountRecord, ActivityRecord, AuditRecord, DeliveryRecord, EndpointRecord, TargetRecord } from './records';

/** Stored shape of a record: `_id` instead of `id`. */
export type Doc<R extends { id: string }> = Omit<R, 'id'> & { _id: string };

export interface ApiKeyDoc {
  _id: string;
  account_id: string;
  digest: string;
  prefix: string;
  created_at: Date;
}

/** Activity documents keep deliveries keyed by delivery id, plus a revision for updates. */
export type ActivityDoc = Omit<Doc<ActivityRecord>, 'deliveries'> & { deliveries: Record<string, DeliveryRecord>; rev: number };

export interface Store {
  connection: Connection;
  accounts: Model<Doc<AccountRecord>>;
  apiKeys: Model<ApiKeyDoc>;
  endpoints: Model<Doc<EndpointRecord>>;
  targets: Model<Doc<TargetRecord>>;
  activity: Model<ActivityDoc>;
  audit: Model<Doc<AuditRecord>>;
  /** true once the server answered a `ping` */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Opens a dedicated mongoose connection (never the global one) with the models bound to it,
 * so several stores — one per test — can live in one process.
 */
export async function connectStore(url: string, opts: { serverSelectionTimeoutMS?: number } = {}): Promise<Store> {
  const connection = mongoose.createConnection(url, {
    serverSelectionTimeoutMS: opts.serverSelectionTimeoutMS ?? 5000,
    autoIndex: true,
  });
  await connection.asPromise();
  const store: Store = {
    connection,
    accounts: connection.model<Doc<AccountRecord>>('Account', accountSchema),
    apiKeys: connection.model<ApiKeyDoc>('ApiKey', apiKeySchema),
    endpoints: connection.model<Doc<EndpointRecord>>('Endpoint', endpointSchema),
    targets: connection.model<Doc<TargetRecord>>('Target', targetSchema),
    activity: connection.model<ActivityDoc>('Activity', activitySchema),
    audit: connection.model<Doc<AuditRecord>>('Audit', auditSchema),
    async ping() {
      try {
        await connection.db?.admin().ping();
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await connection.close();
    },
  };
  await Promise.all([store.accounts, store.apiKeys, store.endpoints, store.targets, store.activity, store.audit].map((m) => m.init()));
  return store;
}
