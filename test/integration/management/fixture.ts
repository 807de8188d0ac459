import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createRelayClient, must } from '@relay/client';
import type { RelayClient } from '@relay/client';
import { cacheChangesChannel, decodeCacheChange, encodeCacheChange, newId } from '@relay/contracts';
import { openActivityLog } from '@relay/activity-log';
import { connectStore } from '@relay/store';
import type { PlanLimits, Store } from '@relay/store';
import { AlertEvaluator, AlertRuleStore } from '@relay/alerts';
import {
  BrokerConnection,
  ConfirmPublisher,
  createActivityPublisher,
  deleteCliBacklog,
  DeliveryPublisher,
} from '@relay/broker';
import { createInternalSigner, createSecretBox } from '@relay/secrets';
import type { SecretBox } from '@relay/secrets';
import { createDefaultRegistry, createSender, SESSION_LEASE_MS } from '@relay/targets';
import { createResendAllowance } from '../../../services/management-api/src/adapters/resend-allowance';
import { MAX_RESENT_DELIVERIES_PER_EVENT } from '../../../services/management-api/src/domain/resend';
import { createActionLimiter } from '../../../services/management-api/src/adapters/action-limiter';
import { issueApiKey } from '../../../services/management-api/src/adapters/api-keys';
import { BulkRetryStore } from '../../../services/management-api/src/adapters/bulk-retry-store';
import { createGatewayClient } from '../../../services/management-api/src/adapters/gateway-client';
import { createTargetBreakers } from '../../../services/management-api/src/adapters/target-breakers';
import { createHeldKeysReader } from '../../../services/management-api/src/adapters/held-keys';
import { createInvalidator } from '../../../services/management-api/src/adapters/invalidation';
import { createAccountLock } from '../../../services/management-api/src/adapters/account-lock';
import {
  createDailyUsageReader,
  createUsageCounter,
} from '../../../services/management-api/src/adapters/usage-counter';
import type { UsageCounter } from '../../../services/management-api/src/adapters/usage-counter';
import { createApp } from '../../../services/management-api/src/app';
import { createCliSessionSlots } from '../../../services/management-api/src/adapters/cli-session-slots';
import { attachListen } from '../../../services/management-api/src/transport/listen';
import { createSessionStore } from '../../../services/management-api/src/adapters/sessions';
import { createRelyingParty } from '../../../services/management-api/src/adapters/oidc-relying-party';
import { createSignInAttempts } from '../../../services/management-api/src/adapters/sign-in-attempts';
import type { MemberDeps } from '../../../services/management-api/src/transport/member-routes';
import { infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';
import { failOnMismatches, recordingResponses } from '../../support/openapi-recorder';
import { modelsOf } from '../../support/store-models';

// every response any test of this file received is checked against the OpenAPI document
afterEach(failOnMismatches);

export const PLAN: PlanLimits = { name: 'starter', monthly_accepted_events: 1000, payload_limit_bytes: 262144 };

/**
 * The management API built the way services/management-api/src/main.ts builds it — real
 * FerretDB store, real Redis (invalidation and usage counter), a real secret box — for one
 * test file, under its own database and Redis namespace. Talks to it through the typed client
 * (on a loopback port) and, for raw HTTP checks, supertest; every response is checked against the
 * OpenAPI document, failing the test that got one that departs.
 */
export interface ManagementFixture {
  app: RequestListener;
  /** where the fixture's server listens (the app and `relay listen`'s upgrade), e.g. `http://127.0.0.1:41234` */
  baseUrl: string;
  /** the express app itself, unwrapped: for tests that read its routes */
  express: Express;
  store: Store;
  redis: Redis;
  namespace: string;
  secrets: SecretBox;
  accountId: string;
  apiKey: string;
  logLines(): Record<string, unknown>[];
  /** changes announced on `${namespace}:cache-changes`, in order, without their numbers: `endpoint ep_…`, `target tg_… ep_…`, `account acc_…` */
  announced: string[];
  /** the typed management API client with this account's owner key (docs/client.md) */
  client: RelayClient;
  /** the same client with another API key */
  clientAs(key: string): RelayClient;
  /** an authenticated raw request, for raw HTTP checks (status codes, headers, malformed bodies) */
  api(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown): request.Test;
  /** a request with another API key */
  apiAs(key: string, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown): request.Test;
  /** a new key of this account with `role`, created through the API by the owner key: its secret and id */
  keyWithRole(role: 'viewer' | 'editor' | 'admin' | 'owner'): Promise<{ secret: string; id: string }>;
  /** another account with its own key, for isolation tests */
  newAccount(plan?: PlanLimits): Promise<{ accountId: string; apiKey: string }>;
  close(): Promise<void>;
}

export async function startManagement(
  label: string,
  opts: {
    now?: () => Date;
    acceptedEvents?: UsageCounter;
    /** members' invitations go through it (createInvitationMailer to a test SMTP server); absent: none can be sent */
    mailer?: MemberDeps['mailer'];
  } = {},
): Promise<ManagementFixture> {
  const ns = testNamespace(label);
  const store = await connectStore(ns.mongodbUrl);
  const redis = new Redis(infra.redisUrl, { maxRetriesPerRequest: 1 });
  const subscriber = new Redis(infra.redisUrl);
  const announced: string[] = [];
  subscriber.on('message', (_channel: string, text: string) => {
    const change = decodeCacheChange(text);
    if (change) announced.push(encodeCacheChange(change));
  });
  await subscriber.subscribe(cacheChangesChannel(ns.namespace));
  const secretsKeys = `k1:${randomBytes(32).toString('base64')}`;
  const secrets = createSecretBox(secretsKeys);
  const { logger, lines } = testLogger('management-api');
  const now = opts.now ?? (() => new Date());
  const broker = unstartedBroker(ns.namespace, logger);
  // listening first: the app's own address is its DASHBOARD_URL (sign-in callbacks and invitation links)
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const express = createApp({
    store,
    activityLog: openActivityLog(store.connection, 'ferretdb'),
    registry: createDefaultRegistry({ secrets }),
    secrets,
    logger,
    publicBaseUrl: 'https://relay.example',
    announceChange: createInvalidator(redis, ns.namespace, logger),
    breakers: createTargetBreakers(redis, ns.namespace, store, createInvalidator(redis, ns.namespace, logger)),
    heldKeys: createHeldKeysReader(redis, ns.namespace),
    dropCliBacklog: (targetId) => deleteCliBacklog(broker, ns.namespace, targetId),
    acceptedEvents: opts.acceptedEvents ?? createUsageCounter(redis, ns.namespace),
    dailyUsage: createDailyUsageReader(redis, ns.namespace),
    accountLock: createAccountLock(redis, ns.namespace),
    readiness: { mongodb: () => store.ping(), redis: () => redis.status === 'ready' },
    ...(opts.now ? { now: opts.now } : {}),
    replay: replayDeps(store, redis, ns.namespace, secretsKeys, logger, now),
    alerts: alertDeps(store, redis, ns.namespace, logger, now),
    members: {
      relyingParty: createRelyingParty(
        createSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.0/8'], maxResponseBytes: 65_536 }),
      ),
      attempts: createSignInAttempts(redis, ns.namespace, secrets, 600_000),
      ...(opts.mailer ? { mailer: opts.mailer } : {}),
      dashboardUrl: `${baseUrl}/`,
      invitationTtlMs: 3_600_000,
    },
    dashboard: {
      sessions: createSessionStore(redis, ns.namespace, secrets, { idleMs: 3_600_000, absoluteMs: 7_200_000 }),
      staticDir: path.resolve(__dirname, '../../../services/management-api/dashboard/dist'),
    },
  });
  const app = recordingResponses(express);
  server.on('request', app);
  // `relay listen`'s upgrade on the API port, as main.ts attaches it; the broker is not started
  const drainedAttempts = createActivityPublisher(new ConfirmPublisher(broker, 5_000), ns.namespace);
  const listenSessions = attachListen(server, {
    store,
    broker,
    namespace: ns.namespace,
    slots: createCliSessionSlots(redis, ns.namespace, SESSION_LEASE_MS),
    recordAttempt: (attempt) => drainedAttempts.publish(attempt),
    logger,
  });
  const clientAs = (key: string): RelayClient => createRelayClient({ baseUrl, apiKey: key });
  const newAccount = async (plan: PlanLimits = PLAN) => {
    const accountId = newId('acc');
    await modelsOf(store).accounts.create({ _id: accountId, name: 'test account', plan, created_at: new Date() });
    return { accountId, apiKey: await issueApiKey(store, accountId) };
  };
  const own = await newAccount();
  const as = (
    key: string,
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    body?: unknown,
  ): request.Test => {
    const req = request(app)[method](path).set('Authorization', `Bearer ${key}`);
    return body === undefined ? req : req.send(body as object);
  };
  return {
    app,
    baseUrl,
    express,
    store,
    redis,
    namespace: ns.namespace,
    secrets,
    ...own,
    logLines: lines,
    announced,
    api(method, path, body) {
      return as(own.apiKey, method, path, body);
    },
    apiAs: as,
    client: clientAs(own.apiKey),
    clientAs,
    async keyWithRole(role) {
      const key = await must(clientAs(own.apiKey).POST('/v1/api-keys', { body: { role, name: `${role} key` } }));
      return { secret: key.secret, id: key.id };
    },
    newAccount,
    async close() {
      await listenSessions.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.connection.dropDatabase().catch(() => undefined);
      await store.close();
      const keys = await redis.keys(`${ns.namespace}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}

function unstartedBroker(namespace: string, logger: ReturnType<typeof testLogger>['logger']): BrokerConnection {
  return new BrokerConnection({
    url: infra.rabbitmqUrl,
    connectionName: `management-api fixture ${namespace}`,
    logger,
    topology: { namespace, deliveryLimit: 20 },
  });
}

/**
 * The test request, resend and bulk retry routes, mounted as main.ts mounts them, so the role
 * test and the route inventory cover them too. What they reach past the store and Redis is here
 * in its unavailable state — no gateway listens at the discard port, the broker connection is
 * not started — so a test request or a resend that got that far would answer its documented 503;
 * their work is tested end to end (test/e2e/replay.test.ts, test/e2e/bulk-retry.test.ts).
 */
function replayDeps(
  store: Store,
  redis: Redis,
  namespace: string,
  secretsKeys: string,
  logger: ReturnType<typeof testLogger>['logger'],
  now: () => Date,
) {
  const broker = unstartedBroker(namespace, logger);
  return {
    store,
    activityLog: openActivityLog(store.connection, 'ferretdb'),
    logger,
    now,
    gateway: createGatewayClient({
      baseUrl: 'http://127.0.0.1:9',
      signer: createInternalSigner(secretsKeys, 'test-request'),
      timeoutMs: 5000,
    }),
    deliveries: new DeliveryPublisher(new ConfirmPublisher(broker, 5000), namespace),
    limits: createActionLimiter(redis, namespace, logger),
    resendAllowance: createResendAllowance(redis, namespace, MAX_RESENT_DELIVERIES_PER_EVENT, 30 * 86_400_000),
    jobs: new BulkRetryStore(store),
    retentionMs: 30 * 86_400_000,
    testRequestsPerMinute: 60,
    resendsPerMinute: 600,
    bulkRetryMaxRate: 50,
  };
}

/**
 * The alert rule routes, mounted as main.ts mounts them (the role test and the route inventory
 * cover them). The broker connection is not started, so a test alert's deliveries are recorded
 * as not queued; alerts are delivered end to end in test/e2e/alerts.test.ts.
 */
function alertDeps(
  store: Store,
  redis: Redis,
  namespace: string,
  logger: ReturnType<typeof testLogger>['logger'],
  now: () => Date,
) {
  const broker = new BrokerConnection({
    url: infra.rabbitmqUrl,
    connectionName: `management-api alerts fixture ${namespace}`,
    logger,
    topology: { namespace, deliveryLimit: 20 },
  });
  const rules = new AlertRuleStore(store);
  const evaluator = new AlertEvaluator({
    store,
    rules,
    redis,
    publisher: new ConfirmPublisher(broker, 5000),
    namespace,
    logger,
    dashboardUrl: 'https://relay.example/',
    now,
  });
  return { store, rules, evaluator, redis, namespace, limits: createActionLimiter(redis, namespace, logger), now };
}
