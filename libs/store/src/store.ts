import mongoose from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { accountSchema, apiKeySchema } from './models/account';
import { auditSchema, endpointSchema, revisionClaimSchema, targetSchema } from './models/endpoint';
import type { AccountRecord, ActivityRecord, ApiKeyRole, AuditRecord, DeliveryRecord, EndpointRecord, TargetRecord } from './records';

/** Stored shape of a record: `_id` instead of `id`. */
export type Doc<R extends { id: string }> = Omit<R, 'id'> & { _id: string };

export interface ApiKeyDoc {
  _id: string;
  account_id: string;
  digest: string;
  prefix: string;
  /** absent: a key from before roles, an owner key */
  role?: ApiKeyRole;
  name?: string | null;
  created_by?: string | null;
  created_at: Date;
  last_used_at?: Date | null;
}

/**
 * Activity documents keep deliveries keyed by delivery id (and attempts by number), so any
 * arrival order lands on the same row. A row that only attempts have reached so far has no
 * request fields yet.
 */
export type ActivityDoc = Omit<Doc<ActivityRecord>, 'deliveries'> & {
  deliveries: Record<string, Omit<DeliveryRecord, 'attempts'> & { attempts: Record<string, DeliveryRecord['attempts'][number]> }>;
};

export interface Store {
  connection: Connection;
  accounts: Model<Doc<AccountRecord>>;
  apiKeys: Model<ApiKeyDoc>;
  endpoints: Model<Doc<EndpointRecord>>;
  targets: Model<Doc<TargetRecord>>;
  audit: Model<Doc<AuditRecord>>;
  /** claims `revision` of an endpoint for one writer; false when another writer has it */
  claimRevision(endpointId: string, revision: number): Promise<boolean>;
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
  const revisionClaims = connection.model('RevisionClaim', revisionClaimSchema);
  const store: Store = {
    connection,
    accounts: connection.model<Doc<AccountRecord>>('Account', accountSchema),
    apiKeys: connection.model<ApiKeyDoc>('ApiKey', apiKeySchema),
    endpoints: connection.model<Doc<EndpointRecord>>('Endpoint', endpointSchema),
    targets: connection.model<Doc<TargetRecord>>('Target', targetSchema),
    audit: connection.model<Doc<AuditRecord>>('Audit', auditSchema),
    async claimRevision(endpointId, revision) {
      try {
        await revisionClaims.collection.insertOne({ _id: `${endpointId}:${revision}`, at: new Date() } as never);
        return true;
      } catch (err) {
        if ((err as { code?: number }).code === 11000) return false;
        throw err;
      }
    },
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
  await Promise.all([store.accounts, store.apiKeys, store.endpoints, store.targets, store.audit].map((m) => m.init()));
  return store;
}
