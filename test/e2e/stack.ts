import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import type { RelayClient } from '@relay/client';
import { connectStore } from '@relay/store';
import type { Store } from '@relay/store';
import { deleteBrokerNamespace, infra, testNamespace } from '../support/infra';
import { testClient } from '../support/api-client';
import { checkResponse } from '../support/openapi-check';
import { bootstrapAccount, startService } from '../support/services';
import { openAccount } from '../../services/management-api/src/adapters/account-store';
import type { RunningService, ServiceName } from '../support/services';
import { sharedStack, stackEnv } from './worker-stacks';

/**
 * A whole Relay stack as one test file sees it: every service its own process, on the real
 * local RabbitMQ, Redis and FerretDB, under a namespace (queues, Redis keys, database), with an
 * account and owner key of the file's own.
 *
 * By default the stack is the Jest worker's shared one (worker-stacks.ts) and the file is one
 * account on it: what it reads and asserts is its own account's, endpoints' and events'.
 * A private stack of the file's own is started for process-level behaviour: `private: true`,
 * or any `overrides` of the services' environment or `only` a subset of services
 * (docs/testing.md "Shared and private stacks").
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
  /** stops one service (SIGTERM, or `signal`) and starts it again with the same environment (private stacks only) */
  restart(name: ServiceName, signal?: NodeJS.Signals): Promise<void>;
  /** a private stack: stops its services and removes its namespace; the shared one: closes this file's connections */
  stop(): Promise<void>;
}

export interface StackOptions {
  /** settings of the services' environment: a private stack */
  overrides?: Partial<Record<ServiceName, Record<string, string>>>;
  /** only these services: a private stack */
  only?: ServiceName[];
  /** a private stack even without overrides: for tests that stop, signal or measure its processes */
  private?: boolean;
}

export async function startStack(label: string, opts: StackOptions = {}): Promise<Stack> {
  return opts.private || opts.overrides || opts.only ? startPrivateStack(label, opts) : accountOnSharedStack();
}

/** The stack's API around its services, connections and owner key (filled in by the caller). */
function stackOf(base: Pick<Stack, 'namespace' | 'env' | 'services' | 'store' | 'redis' | 'restart' | 'stop'>): Stack {
  const stack: Stack = {
    ...base,
    apiKey: '',
    accountId: '',
    get client() {
      return stack.clientAs(stack.apiKey);
    },
    clientAs(key, url) {
      return testClient(url ?? stack.services['management-api']!.url, key);
    },
    async api(path, init = {}) {
      const method = init.method ?? 'GET';
      const res = await fetch(`${init.url ?? stack.services['management-api']!.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${init.key ?? stack.apiKey}`, 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      // the document cannot drift: a response it does not describe fails the test
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
  };
  return stack;
}

const notYours = (what: string): Error =>
  new Error(
    `${what}: the shared stack's processes serve every file of the worker; start a private stack (startStack(label, { private: true }))`,
  );

/** A new account with its owner key on this worker's shared stack. */
async function accountOnSharedStack(): Promise<Stack> {
  const shared = await sharedStack();
  const services: Partial<Record<ServiceName, RunningService>> = {};
  for (const [name, svc] of Object.entries(shared.services) as [
    ServiceName,
    NonNullable<(typeof shared.services)[ServiceName]>,
  ][]) {
    services[name] = {
      name,
      get process(): never {
        throw notYours(`the ${name} process`);
      },
      pid: svc.pid,
      port: svc.port,
      url: svc.url,
      healthUrl: svc.healthUrl,
      output: () => readFileSync(svc.log, 'utf8'),
      stop: () => Promise.reject(notYours(`stopping the ${name}`)),
    };
  }
  const store = await connectStore(shared.mongodbUrl);
  const redis = new Redis(infra.redisUrl);
  const stack = stackOf({
    namespace: shared.namespace,
    env: shared.env,
    services,
    store,
    redis,
    restart: (name) => Promise.reject(notYours(`restarting the ${name}`)),
    async stop() {
      await store.close();
      redis.disconnect();
    },
  });
  // in this process, as the bootstrap command does it: a file's account costs no process of its
  // own (private stacks run the command itself)
  return withOwnerAccount(
    stack,
    async () => undefined,
    () => openAccount(store, 'Demo account'),
  );
}

async function startPrivateStack(label: string, opts: StackOptions): Promise<Stack> {
  const ns = testNamespace(label);
  const env = stackEnv(ns.namespace, ns.mongodbUrl);
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
  const stack: Stack = stackOf({
    namespace: ns.namespace,
    env,
    services,
    store,
    redis,
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
  });
  return withOwnerAccount(stack, async () => {
    const [first, ...rest] = names;
    // the gateway first (the API is given its address), then the others together
    if (first) services[first] = await startService(first, envOf(first));
    await Promise.all(rest.map(async (name) => (services[name] = await startService(name, envOf(name)))));
  });
}

/** After `start` (the services, if any), a new account with its owner key; on a failure, stops what was started. */
async function withOwnerAccount(
  stack: Stack,
  start: () => Promise<void>,
  open = (): Promise<{ account_id: string; api_key: string }> => bootstrapAccount(stack.env),
): Promise<Stack> {
  try {
    await start();
    const account = await open();
    stack.apiKey = account.api_key;
    stack.accountId = account.account_id;
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return stack;
}
