import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RelayClient } from '@relay/client';
import { connectStore } from '@relay/store';
import type { Store } from '@relay/store';
import { deleteBrokerNamespace, infra, testNamespace } from '../support/infra';
import { testClient } from '../support/api-client';
import { checkResponse } from '../support/openapi-check';
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
  /** the typed management API client with the owner key (docs/client.md); its responses must match the OpenAPI document */
  client: RelayClient;
  /** the same client with another key (or at another management API, `url`) */
  clientAs(key: string, url?: string): RelayClient;
  /** a raw management API call with the stack's owner key (or `key`), for raw HTTP checks; its response must match the OpenAPI document */
  api(
    path: string,
    init?: { method?: string; body?: unknown; key?: string; url?: string },
  ): Promise<{ status: number; body: any }>;
  /** stops one service (SIGTERM, or `signal`) and starts it again with the same environment */
  restart(name: ServiceName, signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

export async function startStack(
  label: string,
  opts: { overrides?: Partial<Record<ServiceName, Record<string, string>>>; only?: ServiceName[] } = {},
): Promise<Stack> {
  const ns = testNamespace(label);
  const env: Record<string, string> = {
    RABBITMQ_URL: infra.rabbitmqUrl,
    REDIS_URL: infra.redisUrl,
    MONGODB_URL: ns.mongodbUrl,
    RELAY_NAMESPACE: ns.namespace,
    SSRF_ALLOW_CIDRS: '127.0.0.0/8',
    SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  };
  // the gateway first: the management API runs test requests through it (GATEWAY_INTERNAL_URL)
  const names: ServiceName[] = [
    ...(opts.only ?? ['ingest-gateway', 'management-api', 'webhook-deliverer', 'activity-writer']),
  ].sort((a, b) => Number(b === 'ingest-gateway') - Number(a === 'ingest-gateway'));
  const services: Partial<Record<ServiceName, RunningService>> = {};
  const envOf = (name: ServiceName): Record<string, string> => {
    const gateway = services['ingest-gateway'];
    const extra: Record<string, string> =
      name === 'management-api'
        ? { PUBLIC_BASE_URL: 'http://127.0.0.1:1', ...(gateway ? { GATEWAY_INTERNAL_URL: gateway.healthUrl } : {}) }
        : {};
    return { ...env, ...extra, ...(opts.overrides?.[name] ?? {}) };
  };
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
    get client() {
      return stack.clientAs(stack.apiKey);
    },
    clientAs(key, url) {
      return testClient(url ?? services['management-api']!.url, key);
    },
    async api(path, init = {}) {
      const method = init.method ?? 'GET';
      const res = await fetch(`${init.url ?? services['management-api']!.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${init.key ?? stack.apiKey}`, 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      // The document cannot drift — a response it does not describe fails the test
      const problems = checkResponse({
        method,
        url: path,
        status: res.status,
        contentType: res.headers.get('content-type') ?? undefined,
        text,
      });
      if (problems.length > 0)
        throw new Error(`management API response departs from the OpenAPI document:\n  ${problems.join('\n  ')}`);
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async restart(name, signal) {
      await services[name]?.stop(signal);
      services[name] = await startService(name, envOf(name));
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
    for (const name of names) services[name] = await startService(name, envOf(name));
    const account = await bootstrapAccount(env);
    stack.apiKey = account.api_key;
    stack.accountId = account.account_id;
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return stack;
}
