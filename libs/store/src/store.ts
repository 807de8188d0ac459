import mongoose from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { accountSchema, apiKeySchema } from './models/account';
import { auditSchema, endpointSchema, revisionClaimSchema, targetSchema } from './models/endpoint';
import type {
  AccountRecord,
  ActivityRecord,
  ApiKeyRole,
  AuditRecord,
  DeliveryRecord,
  EndpointRecord,
  TargetRecord,
} from './records';

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
  deliveries: Record<
    string,
    Omit<DeliveryRecord, 'attempts'> & { attempts: Record<string, DeliveryRecord['attempts'][number]> }
  >;
};

/** The models behind a store: only libs/store's own modules query them (index.ts does not export this). */
export interface StoreModels {
  accounts: Model<Doc<AccountRecord>>;
  apiKeys: Model<ApiKeyDoc>;
  endpoints: Model<Doc<EndpointRecord>>;
  targets: Model<Doc<TargetRecord>>;
  audit: Model<Doc<AuditRecord>>;
}

/**
 * A connected store. Code outside libs/store reads and writes through the functions of
 * `@relay/store` (endpoints.ts, targets.ts, accounts.ts, api-keys.ts, audit.ts), in the domain's
 * words; the models stay here. `connection` is for the store-level libraries
 * that keep collections of their own (the activity log, alert rules, bulk retries).
 */
export interface Store {
  connection: Connection;
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
  const models: StoreModels = {
    accounts: connection.model<Doc<AccountRecord>>('Account', accountSchema),
    apiKeys: connection.model<ApiKeyDoc>('ApiKey', apiKeySchema),
    endpoints: connection.model<Doc<EndpointRecord>>('Endpoint', endpointSchema),
    targets: connection.model<Doc<TargetRecord>>('Target', targetSchema),
    audit: connection.model<Doc<AuditRecord>>('Audit', auditSchema),
  };
  const revisionClaims = connection.model('RevisionClaim', revisionClaimSchema);
  const store: Store = {
    connection,
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
  await Promise.all(Object.values(models).map((m: Model<unknown>) => m.init()));
  modelsByStore.set(store, models);
  return store;
}

const modelsByStore = new WeakMap<Store, StoreModels>();

/**
 * The models of a store, as `connectStore` registered them on its connection: for libs/store's
 * own modules (and tests seeding raw documents); the package does not export it.
 */
export function modelsOf(store: Store): StoreModels {
  let models = modelsByStore.get(store);
  if (!models) {
    const c = store.connection;
    models = {
      accounts: c.model('Account'),
      apiKeys: c.model('ApiKey'),
      endpoints: c.model('Endpoint'),
      targets: c.model('Target'),
      audit: c.model('Audit'),
    } as StoreModels;
    modelsByStore.set(store, models);
  }
  return models;
}
