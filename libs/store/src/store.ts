import mongoose from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { accountSchema, apiKeySchema } from './models/account';
import { activitySchema } from './models/activity';
import { endpointSchema, targetSchema } from './models/endpoint';

export interface Store {
  connection: Connection;
  accounts: Model<any>;
  apiKeys: Model<any>;
  endpoints: Model<any>;
  targets: Model<any>;
  activity: Model<any>;
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
    accounts: connection.model('Account', accountSchema),
    apiKeys: connection.model('ApiKey', apiKeySchema),
    endpoints: connection.model('Endpoint', endpointSchema),
    targets: connection.model('Target', targetSchema),
    activity: connection.model('Activity', activitySchema),
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
  await Promise.all([store.accounts, store.apiKeys, store.endpoints, store.targets, store.activity].map((m) => m.init()));
  return store;
}
