import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { connectStore } from '@relay/store';
import type { Store } from '@relay/store';
import { deleteBrokerNamespace, infra, testNamespace } from '../support/infra';
import { bootstrapAccount, startService } from '../support/services';
import type { RunningService, ServiceName } from '../support/services';

/**
 * A whole Relay stack for one test file: every service its own process, on the real local
 * RabbitMQ, Redis and FerretDB, under a namespace (queues, Redis keys, database) of its own.
 */
export interface Stack {
  namespace: string;
  env: Record<string, string>;
  services: Partial<Record<ServiceName, RunningService>>;
  apiKey: string;
  accountId: string;
  store: Store;
  redis: Redis;
  api(path: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

export async function startStack(label: string, opts: { overrides?: Partial<Record<ServiceName, Record<string, string>>>; only?: ServiceName[] } = {}): Promise<Stack> {
  const ns = testNamespace(label);
  const env: Record<string, string> = {
    RABBITMQ_URL: infra.rabbitmqUrl,
    REDIS_URL: infra.redisUrl,
    MONGODB_URL: ns.mongodbUrl,
    RELAY_NAMESPACE: ns.namespace,
    SSRF_ALLOW_CIDRS: '127.0.0.0/8',
    SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  };
  const names: ServiceName[] = opts.only ?? ['management-api', 'ingest-gateway', 'webhook-deliverer', 'activity-writer'];
  const services: Partial<Record<ServiceName, RunningService>> = {};
  const store = await connectStore(ns.mongodbUrl);
  const redis = new Redis(infra.redisUrl);
  const stack: Stack = {
    namespace: ns.namespace,
    env,
    services,
    apiKey: '',
    accountId: '',
    store,
    redis,
    async api(path, init = {}) {
      const res = await fetch(`${services['management-api']!.url}${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async stop() {
      await Promise.all(Object.values(services).map((s) => s!.stop()));
      await store.connection.dropDatabase().catch(() => undefined);
      await store.close();
      const keys = await redis.keys(`${ns.namespace}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await deleteBrokerNamespace(ns.namespace);
    },
  };
  try {
    for (const name of names) {
      const extra: Record<string, string> = name === 'management-api' ? { PUBLIC_BASE_URL: 'http://127.0.0.1:1' } : {};
      services[name] = await startService(name, { ...env, ...extra, ...(opts.overrides?.[name] ?? {}) });
    }
    const account = await bootstrapAccount(env);
    stack.apiKey = account.api_key;
    stack.accountId = account.account_id;
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return stack;
}
