import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import amqp from 'amqplib';
import type { Channel, ChannelModel } from 'amqplib';
import { Redis } from 'ioredis';
import { BrokerConnection, ConfirmPublisher, createPayloadPublisher, publishAccountEvent } from '@relay/broker';
import { ChangeFeed, createCacheMetrics, createChangePublisher } from '@relay/cache';
import type { ChangePublisher } from '@relay/cache';
import { brokerNames, newId } from '@relay/contracts';
import type { ActivityRequestV1, DeliveryMessageV1 } from '@relay/contracts';
import { createSecretBox } from '@relay/secrets';
import { connectStore } from '@relay/store';
import type { EndpointRecord, PlanLimits, Store } from '@relay/store';
import { createSender } from '@relay/targets';
import { createActivityRecorder } from '../../../services/ingest-gateway/src/adapters/activity-recorder';
import { createActivitySpool } from '../../../services/ingest-gateway/src/adapters/activity-spool';
import { createProviderCalls } from '../../../services/ingest-gateway/src/adapters/signing-certificates';
import { createCaptchaVerifier } from '../../../services/ingest-gateway/src/adapters/captcha-verifier';
import { EndpointCache } from '../../../services/ingest-gateway/src/adapters/endpoint-cache';
import { createEndpointLoader } from '../../../services/ingest-gateway/src/adapters/endpoint-loader';
import { createEventPublisher } from '../../../services/ingest-gateway/src/adapters/event-publisher';
import { createIdempotencyStore } from '../../../services/ingest-gateway/src/adapters/idempotency-store';
import { createQuarantineBound } from '../../../services/ingest-gateway/src/adapters/quarantine-bound';
import { createDriftLearner } from '../../../services/ingest-gateway/src/adapters/payload-drift';
import { createPayloadRecorder } from '../../../services/ingest-gateway/src/adapters/payload-recorder';
import {
  createRedisLimiter,
  LATE_ANSWER_MS,
  limiterRedisOptions,
} from '../../../services/ingest-gateway/src/adapters/limiter/redis-limiter';
import { createGatewayMetrics, registerSpoolLength } from '../../../services/ingest-gateway/src/adapters/metrics';
import type { GatewayMetrics } from '../../../services/ingest-gateway/src/adapters/metrics';
import { createRulePool } from '../../../services/ingest-gateway/src/adapters/rule-pool/pool';
import { createApp } from '../../../services/ingest-gateway/src/app';
import { configSpec } from '../../../services/ingest-gateway/src/config';
import { createIngestServer } from '../../../services/ingest-gateway/src/transport/server';
import { deleteBrokerNamespace, eventually, infra, testNamespace } from '../../support/infra';
import { activityRecordsOf } from '../../support/activity-messages';
import { testLogger } from '../../support/logger';
import { modelsOf } from '../../support/store-models';

/**
 * The real gateway app (`createApp` with the real adapters) on the real local RabbitMQ, Redis
 * and FerretDB, under a namespace of its own per test file. Several gateway instances can
 * share one namespace. Activity rows and deliveries are read back from the namespace's queues.
 */
export interface GatewayOptions {
  /** Redis the limiter talks to (a closed port or a TcpProxy to test the fallback) */
  limiterRedisUrl?: string;
  /** LIMITER_TIMEOUT_MS (200): how long the limiter waits for Redis before the fallback decides */
  limiterTimeoutMs?: number;
  rabbitmqUrl?: string;
  clock?: () => Date;
  publicBaseUrl?: string | null;
  trustProxyHops?: number;
  captchaTimeoutMs?: number;
  /** QUARANTINE_PER_ACCOUNT_PER_HOUR (default 1000) */
  quarantinePerHour?: number;
  maxBodyBytes?: number;
  bodyTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** the store the endpoint cache reads (a store behind a TcpProxy to test an outage) */
  store?: Store;
  /** Redis the change feed follows (a TcpProxy to cut the subscription) */
  changesRedisUrl?: string;
}

export interface GatewayInstance {
  url: string;
  metrics: GatewayMetrics;
  logs: () => Record<string, unknown>[];
  /** the number of the last change announcement this instance's cache applied */
  heardSeq(): number;
  stopped(): boolean;
  stop(): Promise<void>;
}

export type EndpointFields = Partial<Omit<EndpointRecord, 'id' | 'account_id' | 'created_at' | 'updated_at'>>;

export class IngestHarness {
  readonly rows: ActivityRequestV1[] = [];
  readonly deliveries: DeliveryMessageV1[] = [];
  private readonly instances: GatewayInstance[] = [];
  private consumer: { conn: ChannelModel; ch: Channel } | null = null;
  private markerEndpoint: string | null = null;
  readonly secrets = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
  private readonly changes: ChangePublisher;

  private constructor(
    readonly namespace: string,
    readonly store: Store,
    /** the test's own Redis connection, to read counters */
    readonly redis: Redis,
  ) {
    this.changes = createChangePublisher(redis, namespace, testLogger().logger);
  }

  static async start(label: string): Promise<IngestHarness> {
    const ns = testNamespace(label);
    const store = await connectStore(ns.mongodbUrl);
    return new IngestHarness(ns.namespace, store, new Redis(infra.redisUrl));
  }

  /** One gateway instance: its own broker connection, Redis clients, endpoint cache and limiter. */
  async gateway(opts: GatewayOptions = {}): Promise<GatewayInstance> {
    const { logger, lines } = testLogger('ingest-gateway');
    const metrics = createGatewayMetrics();
    const broker = new BrokerConnection({
      url: opts.rabbitmqUrl ?? infra.rabbitmqUrl,
      connectionName: `test gateway ${this.namespace}`,
      logger,
      topology: { namespace: this.namespace, deliveryLimit: 20 },
      reconnectMinMs: 100,
      reconnectMaxMs: 500,
    });
    await broker.start();
    const redis = new Redis(infra.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    // quick reconnects for the outage tests; a short disconnectTimeout so a stream to a closed
    // port does not hold a 2 s ioredis timer past the test
    const quickRedis = new Redis(opts.limiterRedisUrl ?? infra.redisUrl, {
      ...limiterRedisOptions(opts.limiterTimeoutMs ?? 200),
      retryStrategy: () => 100,
      disconnectTimeout: 50,
    });
    const lateAnswerRedis = new Redis(opts.limiterRedisUrl ?? infra.redisUrl, {
      ...limiterRedisOptions(LATE_ANSWER_MS),
      retryStrategy: () => 100,
      disconnectTimeout: 50,
    });
    for (const r of [redis, quickRedis, lateAnswerRedis]) r.on('error', () => undefined);
    await eventually(async () => redis.status === 'ready', 5000, 'redis');
    const publisher = new ConfirmPublisher(broker, 1000, (result) => metrics.publishes.inc({ result }));
    const events = createEventPublisher(publisher, this.namespace);
    const spool = createActivitySpool(redis, this.namespace, newId('gw'), logger);
    registerSpoolLength(metrics.registry, () => spool.length());
    const cacheMetrics = createCacheMetrics(metrics.registry);
    const endpoints = new EndpointCache({
      loader: createEndpointLoader(
        opts.store ?? this.store,
        logger,
        (sealed) => this.secrets.decrypt(sealed),
        1000,
        cacheMetrics,
      ),
      maxEntries: 1000,
      staleIfErrorMs: 60000,
      loadTimeoutMs: 1000,
      logger,
      onLookupFailure: (served) => metrics.endpointLookupFailures.inc({ served }),
    });
    // as main.ts: the cache follows the change announcements (here on connections of its own, so a test can cut them)
    const subscriber = new Redis(opts.changesRedisUrl ?? infra.redisUrl, { retryStrategy: () => 100 });
    const counter = new Redis(opts.changesRedisUrl ?? infra.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: () => 100,
    });
    for (const r of [subscriber, counter]) r.on('error', () => undefined);
    await eventually(async () => counter.status === 'ready', 5000, 'redis');
    const feed = new ChangeFeed({
      subscriber,
      commands: counter,
      namespace: this.namespace,
      logger,
      checkIntervalMs: 100,
      sweepIntervalMs: 0,
    });
    endpoints.follow(feed, { batchSize: 50, pauseMs: 0 }, cacheMetrics);
    let heard = 0;
    feed.onChange((change) => (heard = change.seq));
    await feed.start();
    // as main.ts, with the built worker and the default settings
    const rules = createRulePool({
      filename: path.join(__dirname, '../../../services/ingest-gateway/dist/adapters/rule-pool/worker.js'),
      size: configSpec.rulesPoolSize.default!,
      deadlineMs: configSpec.rulesDeadlineMs.default!,
      inlineCost: configSpec.rulesInlineCost.default!,
      queueMax: configSpec.rulesPoolQueue.default!,
      accountMax: configSpec.rulesPoolAccountMax.default!,
      logger,
    });
    const app = createApp({
      endpoints,
      events,
      rules,
      activity: createActivityRecorder(events, spool, logger),
      limiter: createRedisLimiter({
        redis: lateAnswerRedis,
        decisionTimeoutMs: opts.limiterTimeoutMs ?? 200,
        namespace: this.namespace,
        logger,
        fallbackCounter: metrics.limiterFallback,
        retryAfterFailureMs: 200,
      }),
      captcha: createCaptchaVerifier({
        send: createSender({ timeoutMs: opts.captchaTimeoutMs ?? 2000, allowCidrs: ['127.0.0.0/8'] }),
        logger,
        unavailableCounter: metrics.captchaUnavailable,
      }),
      payloads: createPayloadRecorder(createPayloadPublisher(publisher, this.namespace), logger, () => undefined),
      ...createProviderCalls({
        send: createSender({ timeoutMs: 2000, allowCidrs: ['127.0.0.0/8'] }),
        extraAnchors: '',
        maxEntries: 10,
        maxAgeMs: 60_000,
        logger,
      }),
      idempotency: createIdempotencyStore({
        redis: lateAnswerRedis,
        deadlineMs: opts.limiterTimeoutMs ?? 200,
        namespace: this.namespace,
        windowMs: 86_400_000,
        logger,
        onUnavailable: () => undefined,
      }),
      quarantine: createQuarantineBound({
        redis: quickRedis,
        namespace: this.namespace,
        perHour: opts.quarantinePerHour ?? 1000,
        logger,
      }),
      drift: createDriftLearner({
        redis: quickRedis,
        namespace: this.namespace,
        logger,
        publish: (event) => publishAccountEvent(publisher, this.namespace, event),
      }),
      logger,
      metrics,
      maxBodyBytes: opts.maxBodyBytes ?? 1048576,
      bodyTimeoutMs: opts.bodyTimeoutMs ?? 15000,
      publicBaseUrl: opts.publicBaseUrl ?? null,
      trustProxyHops: opts.trustProxyHops ?? 0,
      now: opts.clock ?? (() => new Date()),
    });
    // the server main.ts runs: its timeouts, Expect handling and parser-error answers
    const server = createIngestServer(app, {
      headersTimeoutMs: opts.headersTimeoutMs ?? 10000,
      bodyTimeoutMs: opts.bodyTimeoutMs ?? 15000,
      logger,
      onClientError: (code) => metrics.requests.inc({ outcome: code }),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let stopped: Promise<void> | null = null;
    const instance: GatewayInstance = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      metrics,
      logs: lines,
      heardSeq: () => heard,
      stopped: () => stopped !== null,
      // idempotent: a test may stop an instance that the harness stops again at the end
      stop: () =>
        (stopped ??= (async () => {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
          await events.settle(1000);
          await broker.close();
          feed.stop();
          redis.disconnect();
          quickRedis.disconnect();
          lateAnswerRedis.disconnect();
          subscriber.disconnect();
          counter.disconnect();
          await rules.close();
        })()),
    };
    this.instances.push(instance);
    await this.consume();
    return instance;
  }

  async account(plan: Partial<PlanLimits> = {}): Promise<string> {
    const id = newId('acc');
    await modelsOf(this.store).accounts.create({
      _id: id,
      name: id,
      plan: { name: 'test', monthly_accepted_events: 1_000_000, payload_limit_bytes: 65536, ...plan },
      created_at: new Date(),
    });
    return id;
  }

  /** Stores an endpoint (secrets must already be sealed with `seal`) with `targets` webhook targets. */
  async endpoint(accountId: string, fields: EndpointFields = {}, targets = 1): Promise<string> {
    const id = newId('ep');
    const now = new Date();
    await modelsOf(this.store).endpoints.create({
      _id: id,
      account_id: accountId,
      name: id,
      enabled: true,
      paused: false,
      methods: ['POST'],
      payload_format: 'json',
      inbound_auth: { type: 'NONE' },
      ...fields,
      created_at: now,
      updated_at: now,
    });
    for (let i = 0; i < targets; i++) {
      await modelsOf(this.store).targets.create({
        _id: newId('tg'),
        account_id: accountId,
        endpoint_id: id,
        kind: 'webhook',
        name: 't',
        enabled: true,
        config: { url: 'http://127.0.0.1:9/hook', enforce_https: false },
        created_at: now,
        updated_at: now,
      });
    }
    return id;
  }

  /** Changes an endpoint as the management API does: stored, then announced; returns once every running gateway applied it. */
  async update(endpointId: string, fields: EndpointFields): Promise<void> {
    await modelsOf(this.store).endpoints.updateOne(
      { _id: endpointId },
      { $set: { ...fields, updated_at: new Date() }, $inc: { revision: 1 } },
    );
    const seq = (await this.changes.announce({ scope: 'endpoint', id: endpointId })) ?? Infinity;
    await eventually(
      async () => this.instances.every((gw) => gw.stopped() || gw.heardSeq() >= seq),
      5000,
      `announcement ${seq} heard by every gateway`,
    );
  }

  seal(secret: string): string {
    return this.secrets.encrypt(secret);
  }

  rowsOf(endpointId: string): ActivityRequestV1[] {
    return this.rows.filter((r) => r.endpoint_id === endpointId);
  }

  async waitForRows(endpointId: string, count: number): Promise<ActivityRequestV1[]> {
    return eventually(
      async () => this.rowsOf(endpointId).length >= count && this.rowsOf(endpointId),
      10000,
      `${count} activity row(s) of ${endpointId}`,
    );
  }

  deliveriesOf(endpointId: string): DeliveryMessageV1[] {
    return this.deliveries.filter((d) => d.endpoint_id === endpointId);
  }

  /**
   * Waits until every row of the requests already answered by `gateway` has arrived: a request
   * that does leave a row is sent after them, and rows leave a gateway in order on one confirm
   * channel. Then "no row" can be asserted.
   */
  async settle(gateway: GatewayInstance): Promise<void> {
    if (!this.markerEndpoint) this.markerEndpoint = await this.endpoint(await this.account(), { methods: ['POST'] }, 0);
    const before = this.rowsOf(this.markerEndpoint).length;
    await fetch(`${gateway.url}/relay/${this.markerEndpoint}`, { method: 'DELETE' });
    await this.waitForRows(this.markerEndpoint, before + 1);
  }

  async expectNoRows(endpointId: string, gateway: GatewayInstance): Promise<void> {
    await this.settle(gateway);
    expect(this.rowsOf(endpointId)).toEqual([]);
  }

  async stop(): Promise<void> {
    await Promise.all(this.instances.map((g) => g.stop()));
    await this.consumer?.conn.close().catch(() => undefined);
    await this.store.connection.dropDatabase().catch(() => undefined);
    await this.store.close();
    const keys = await this.redis.keys(`${this.namespace}:*`);
    if (keys.length) await this.redis.del(...keys);
    this.changes.close();
    this.redis.disconnect();
    await deleteBrokerNamespace(this.namespace);
  }

  /** Reads the activity and delivery queues (declared by the first gateway) into arrays. */
  private async consume(): Promise<void> {
    if (this.consumer) return;
    const conn = await amqp.connect(infra.rabbitmqUrl);
    const ch = await conn.createChannel();
    this.consumer = { conn, ch };
    const names = brokerNames(this.namespace);
    const into =
      <T>(list: T[]) =>
      (msg: amqp.ConsumeMessage | null) => {
        if (!msg) return;
        list.push(JSON.parse(msg.content.toString('utf8')) as T);
        ch.ack(msg);
      };
    for (const queue of names.activityPartitionQueues) {
      await ch.consume(queue, (msg) => {
        if (!msg) return;
        this.rows.push(...(activityRecordsOf(msg.content) as ActivityRequestV1[]));
        ch.ack(msg);
      });
    }
    await ch.consume(names.deliveryQueue('webhook'), into(this.deliveries));
  }
}
