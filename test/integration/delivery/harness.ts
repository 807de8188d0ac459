import amqp from 'amqplib';
import type { Channel, ChannelModel } from 'amqplib';
import { BrokerConnection, ConfirmPublisher, DeliveryPublisher } from '@relay/broker';
import { connectChangeFeed } from '@relay/cache';
import { DELIVERY_V1, brokerNames, decodeMessage } from '@relay/contracts';
import type { ActivityAttemptV1, DeliveryChannel, DeliveryMessageV1 } from '@relay/contracts';
import { connectStore } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import { createDeliverer } from '../../../services/deliverer/src/delivery/worker';
import type { Deliverer } from '../../../services/deliverer/src/delivery/worker';
import { Registry } from 'prom-client';
import { createRegistry } from '@relay/targets';
import type { OutboundRequest, SendOutcome, TargetKind } from '@relay/targets';
import { deleteBrokerNamespace, eventually, infra, testNamespace } from '../../support/infra';
import { activityRecordsOf } from '../../support/activity-messages';
import { testLogger } from '../../support/logger';
import { modelsOf } from '../../support/store-models';

/** The short test tiers: the real broker delays, just quick. */
export const TEST_TIERS_MS = [200, 500, 1_000];

export interface Harness {
  namespace: string;
  mongodbUrl: string;
  channel: DeliveryChannel;
  store: Store;
  broker: BrokerConnection;
  publisher: ConfirmPublisher;
  deliverer: Deliverer;
  /** a plain channel for inspecting queues */
  inspect: Channel;
  /** the deliverer's metrics (its /metrics) */
  metrics: Registry;
  addTarget(t: Partial<TargetRecord> & { kind: string; config: Record<string, unknown> }): Promise<string>;
  /** changes a target as the management API does: stored, announced; returns once the deliverer applied it */
  updateTarget(targetId: string, set: Partial<TargetRecord>): Promise<void>;
  publish(d: DeliveryMessageV1): Promise<void>;
  /** attempt outcomes recorded so far (the activity queue, drained as they arrive) */
  attempts: ActivityAttemptV1[];
  /** dead-lettered deliveries, drained from the dead-letter queue */
  deadLetters(): Promise<Array<{ delivery: DeliveryMessageV1; headers: Record<string, unknown> }>>;
  close(): Promise<void>;
}

let seq = 0;

/** One deliverer in this process, on the real RabbitMQ and FerretDB, under its own namespace. */
export async function startHarness(
  label: string,
  opts: {
    channel: DeliveryChannel;
    kinds: TargetKind[];
    send(req: OutboundRequest): Promise<SendOutcome>;
    flagAfter?: number;
    /** ordered deliveries: prefetch, hold bound and stuck bound (defaults: 8, 60 s, 5 s) */
    ordering?: { prefetch?: number; holdMaxMs?: number; stuckAfterMs?: number };
  },
): Promise<Harness> {
  const ns = testNamespace(label);
  const names = brokerNames(ns.namespace);
  const { logger } = testLogger();
  const store = await connectStore(ns.mongodbUrl);
  const broker = new BrokerConnection({
    url: infra.rabbitmqUrl,
    connectionName: `test ${label}`,
    logger,
    topology: { namespace: ns.namespace, deliveryLimit: 20, retryDelaysMs: { [opts.channel]: TEST_TIERS_MS } },
  });
  await broker.start();
  const publisher = new ConfirmPublisher(broker, 5000);
  const metrics = new Registry();
  const changes = connectChangeFeed({
    redisUrl: infra.redisUrl,
    namespace: ns.namespace,
    checkIntervalMs: 100,
    sweepIntervalMs: 0,
    logger,
  });
  const deliverer = createDeliverer({
    channel: opts.channel,
    namespace: ns.namespace,
    broker,
    store,
    registry: createRegistry(opts.kinds),
    send: opts.send,
    logger,
    prefetch: 8,
    targetCacheMax: 1000,
    changes,
    revalidation: { batchSize: 50, pauseMs: 0 },
    confirmTimeoutMs: 5000,
    retry: { tiersMs: TEST_TIERS_MS, jitterPct: 0, retryAfterMaxMs: 1_000 },
    flagAfterPermanentFailures: opts.flagAfter ?? 3,
    metrics,
    ordering: { prefetch: 8, holdMaxMs: 60_000, stuckAfterMs: 5_000, balanceMs: 0, ...opts.ordering },
  });
  let heard = 0;
  changes.feed.onChange((change) => (heard = change.seq));
  await changes.feed.start();
  await deliverer.start();

  const conn: ChannelModel = await amqp.connect(infra.rabbitmqUrl);
  const inspect = await conn.createChannel();
  const attempts: ActivityAttemptV1[] = [];
  for (const queue of names.activityPartitionQueues) {
    await inspect.consume(queue, (msg) => {
      if (!msg) return;
      attempts.push(...(activityRecordsOf(msg.content) as ActivityAttemptV1[]));
      inspect.ack(msg);
    });
  }

  return {
    namespace: ns.namespace,
    mongodbUrl: ns.mongodbUrl,
    channel: opts.channel,
    store,
    broker,
    publisher,
    deliverer,
    inspect,
    metrics,
    attempts,
    async addTarget(t) {
      const id = `tg_${label}${++seq}`;
      const now = new Date();
      await modelsOf(store).targets.create({
        _id: id,
        account_id: 'acc_it',
        endpoint_id: 'ep_it',
        name: id,
        enabled: true,
        flagged: null,
        created_at: now,
        updated_at: now,
        ...t,
      });
      return id;
    },
    async updateTarget(targetId, set) {
      const before = await modelsOf(store)
        .targets.findOneAndUpdate({ _id: targetId }, { $set: { ...set, updated_at: new Date() } })
        .lean();
      const seq =
        (await changes.publisher.announce({
          scope: 'target',
          id: targetId,
          endpoint_id: before?.endpoint_id ?? 'ep_it',
        })) ?? Infinity;
      await eventually(async () => heard >= seq, 5000, `announcement ${seq} heard`);
    },
    // as the gateway publishes: a delivery with an ordering key goes to its key's ordered partition
    publish: (d) => new DeliveryPublisher(publisher, ns.namespace).publish([{ message: d, channel: opts.channel }]),
    async deadLetters() {
      const out: Array<{ delivery: DeliveryMessageV1; headers: Record<string, unknown> }> = [];
      for (let i = 0; i < 1000; i++) {
        const msg = await inspect.get(names.deadDeliveryQueue(opts.channel), { noAck: true });
        if (!msg) break;
        out.push({ delivery: decodeMessage(msg.content, [DELIVERY_V1]), headers: msg.properties.headers ?? {} });
      }
      return out;
    },
    async close() {
      await deliverer.stop(2000);
      await conn.close().catch(() => undefined);
      await broker.close();
      await changes.close();
      await store.connection.dropDatabase().catch(() => undefined);
      await store.close();
      await deleteBrokerNamespace(ns.namespace, TEST_TIERS_MS);
    },
  };
}

export function deliveryFor(targetId: string, kind: string, body = '{"n":1}'): DeliveryMessageV1 {
  const n = `${Date.now().toString(36)}${++seq}`;
  return {
    type: DELIVERY_V1,
    event_id: `evt_${n}`,
    delivery_id: `dlv_${n}`,
    attempt: 1,
    account_id: 'acc_it',
    endpoint_id: 'ep_it',
    target_id: targetId,
    target_kind: kind,
    received_at: new Date().toISOString(),
    request: { method: 'POST', source_ip: '198.51.100.7', headers: {}, query: '' },
    payload: { content_type: 'application/json', body_base64: Buffer.from(body).toString('base64') },
  };
}
