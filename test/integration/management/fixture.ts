import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import request from 'supertest';
import { newId } from '@relay/contracts';
import { connectStore } from '@relay/store';
import type { PlanLimits, Store } from '@relay/store';
import { createSecretBox } from '@relay/secrets';
import type { SecretBox } from '@relay/secrets';
import { createDefaultRegistry } from '@relay/targets';
import { issueApiKey } from '../../../services/management-api/src/adapters/api-keys';
import { createInvalidator } from '../../../services/management-api/src/adapters/invalidation';
import { createUsageCounter } from '../../../services/management-api/src/adapters/usage-counter';
import type { UsageCounter } from '../../../services/management-api/src/adapters/usage-counter';
import { createApp } from '../../../services/management-api/src/app';
import { infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';

export const PLAN: PlanLimits = { name: 'starter', monthly_accepted_events: 1000, payload_limit_bytes: 262144 };

/**
 * The management API built the way services/management-api/src/main.ts builds it — real
 * FerretDB store, real Redis (invalidation and usage counter), a real secret box — for one
 * test file, under its own database and Redis namespace. Talks to it through supertest.
 */
export interface ManagementFixture {
  app: Express;
  store: Store;
  redis: Redis;
  namespace: string;
  secrets: SecretBox;
  accountId: string;
  apiKey: string;
  logLines(): Record<string, unknown>[];
  /** endpoint ids announced on `${namespace}:endpoint-changed`, in order */
  announced: string[];
  /** an authenticated request */
  api(method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: unknown): request.Test;
  /** another account with its own key, for isolation tests */
  newAccount(plan?: PlanLimits): Promise<{ accountId: string; apiKey: string }>;
  close(): Promise<void>;
}

export async function startManagement(label: string, opts: { now?: () => Date; acceptedEvents?: UsageCounter } = {}): Promise<ManagementFixture> {
  const ns = testNamespace(label);
  const store = await connectStore(ns.mongodbUrl);
  const redis = new Redis(infra.redisUrl, { maxRetriesPerRequest: 1 });
  const subscriber = new Redis(infra.redisUrl);
  const announced: string[] = [];
  subscriber.on('message', (_channel: string, id: string) => announced.push(id));
  await subscriber.subscribe(`${ns.namespace}:endpoint-changed`);
  const secrets = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
  const { logger, lines } = testLogger('management-api');
  const app = createApp({
    store,
    registry: createDefaultRegistry({ secrets }),
    secrets,
    logger,
    publicBaseUrl: 'https://relay.example',
    announceChange: createInvalidator(redis, ns.namespace, logger),
    acceptedEvents: opts.acceptedEvents ?? createUsageCounter(redis, ns.namespace),
    readiness: { mongodb: () => store.ping(), redis: () => redis.status === 'ready' },
    ...(opts.now ? { now: opts.now } : {}),
  });
  const newAccount = async (plan: PlanLimits = PLAN) => {
    const accountId = newId('acc');
    await store.accounts.create({ _id: accountId, name: 'test account', plan, created_at: new Date() });
    return { accountId, apiKey: await issueApiKey(store, accountId) };
  };
  const own = await newAccount();
  return {
    app,
    store,
    redis,
    namespace: ns.namespace,
    secrets,
    ...own,
    logLines: lines,
    announced,
    api(method, path, body) {
      const req = request(app)[method](path).set('Authorization', `Bearer ${own.apiKey}`);
      return body === undefined ? req : req.send(body as object);
    },
    newAccount,
    async close() {
      await store.connection.dropDatabase().catch(() => undefined);
      await store.close();
      const keys = await redis.keys(`${ns.namespace}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}
