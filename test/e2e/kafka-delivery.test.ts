import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { must } from '@relay/client';
import type { KafkaMessage } from 'kafkajs';
import { activityRowWhen } from '../support/api-client';
import { eventually } from '../support/infra';
import { startPrivateKafka } from '../support/private-kafka';
import type { PrivateKafka } from '../support/private-kafka';
import {
  addQueueTarget,
  completedRows,
  flagOf,
  removeTarget,
  retryingWith,
  RIDES_OUT_AN_OUTAGE,
  sendJson,
} from '../support/queue-targets';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';
import { startTogether } from '../support/start-together';

/*
 * Apache Kafka targets (docs/targets-queues.md "Apache Kafka"), every service its own process on
 * the worker's shared stack, which runs no outputs deliverer: this file starts one on the stack's
 * environment for its own run, and one single-node Kafka (KRaft) of its own, once, with a
 * PLAINTEXT, a SASL_PLAINTEXT (PLAIN, SCRAM-SHA-256) and a TLS listener (its certificate the deliverer's one extra
 * trust anchor), and topic auto-creation off. Each test creates
 * its topic (`e2e-<uuid>`) and reads what arrived with a consumer; the outage test stops that
 * broker and starts it again on the same log directory.
 */

let stack: Stack;
let outputs: RunningService;
let kafka: PrivateKafka;
let endpointId: string;
let caDir: string;

beforeAll(async () => {
  [stack, kafka] = await startTogether(
    [startStack('kafka'), (s) => s.stop()],
    [startPrivateKafka('kafka-target'), (k) => k.close()],
  );
  caDir = mkdtempSync(path.join(tmpdir(), 'relay-kafka-ca-'));
  writeFileSync(path.join(caDir, 'ca.pem'), kafka.ca);
  outputs = await startService('outputs-deliverer', { ...stack.env, NODE_EXTRA_CA_CERTS: path.join(caDir, 'ca.pem') });
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'to topics' } }))).id;
});

afterAll(async () => {
  await outputs?.stop();
  await kafka?.close();
  await stack?.stop();
  if (caDir) rmSync(caDir, { recursive: true, force: true });
});

async function newTopic(config?: Record<string, string>): Promise<string> {
  const topic = `e2e-${randomUUID()}`;
  await kafka.createTopic(topic, config);
  return topic;
}

const header = (m: KafkaMessage, name: string): string | undefined => m.headers?.[name]?.toString();

describe('Kafka target, end to end', () => {
  it('an event becomes one record: the body, the key from the payload, the ids in headers; SASL SCRAM-SHA-256 on the way', async () => {
    const topic = await newTopic();
    const reader = await kafka.consume(topic);
    const targetId = await addQueueTarget(stack, endpointId, 'kafka', {
      brokers: [kafka.saslBroker],
      topic,
      key_path: 'order.customer',
      sasl: { mechanism: 'scram-sha-256', ...kafka.user },
    });
    try {
      await sendJson(stack, endpointId, { type: 'paid', order: { customer: 'cus_7', id: 42 } });
      await sendJson(stack, endpointId, { type: 'refund' });
      const records = await reader.waitFor(2);
      const byBody = new Map(records.map((m) => [m.value!.toString(), m]));
      const keyed = byBody.get('{"type":"paid","order":{"customer":"cus_7","id":42}}')!;
      expect(keyed.key?.toString()).toBe('cus_7');
      expect(header(keyed, 'content-type')).toBe('application/json');
      expect(header(keyed, 'relay-endpoint-id')).toBe(endpointId);
      expect(header(keyed, 'relay-event-id')).toMatch(/^evt_/);
      expect(header(keyed, 'relay-delivery-id')).toMatch(/^dlv_/);
      // a payload without the key's field: a record without a key
      expect(byBody.get('{"type":"refund"}')!.key).toBeNull();

      const row = await activityRowWhen(
        stack.client,
        header(keyed, 'relay-event-id')!,
        (r) => r.status === 'completed',
        'delivered',
      );
      expect(row.deliveries).toEqual([
        expect.objectContaining({ delivery_id: header(keyed, 'relay-delivery-id'), target_id: targetId }),
      ]);
      expect(row.deliveries[0]!.attempts.map((a) => [a.state, a.status_code])).toEqual([['delivered', null]]);
      const shown = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
          params: { path: { endpointId, targetId } },
        }),
      );
      expect(JSON.stringify(shown)).not.toContain(kafka.user.password);
      expect((shown.config as { sasl: { password: string } }).sasl.password).toBe('[redacted]');
    } finally {
      await removeTarget(stack, endpointId, targetId);
      await reader.close();
    }
  });

  it('tls: the record goes over the TLS listener, its certificate verified', async () => {
    const topic = await newTopic();
    const reader = await kafka.consume(topic);
    const targetId = await addQueueTarget(stack, endpointId, 'kafka', { brokers: [kafka.tlsBroker], topic, tls: true });
    try {
      await sendJson(stack, endpointId, { over: 'tls' });
      const [record] = await reader.waitFor(1);
      expect(JSON.parse(record!.value!.toString())).toEqual({ over: 'tls' });
    } finally {
      await removeTarget(stack, endpointId, targetId);
      await reader.close();
    }
  });

  it('a wrong SASL password flags the target with the reason; the password is in no response', async () => {
    const topic = await newTopic();
    const targetId = await addQueueTarget(stack, endpointId, 'kafka', {
      brokers: [kafka.saslBroker],
      topic,
      sasl: { mechanism: 'plain', username: kafka.user.username, password: 'wrong-Pa55word' },
    });
    try {
      await sendJson(stack, endpointId, { n: 1 });
      const flagged = await flagOf(stack, endpointId, targetId);
      expect(flagged.reason).toContain('the cluster refused the SASL credentials (SASL_AUTHENTICATION_FAILED)');
      const list = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }),
      );
      expect(JSON.stringify(list)).not.toContain('wrong-Pa55word');
    } finally {
      await removeTarget(stack, endpointId, targetId);
    }
  });

  it("a record over the topic's max.message.bytes fails that delivery only: the target is not flagged, the next one arrives", async () => {
    const topic = await newTopic({ 'max.message.bytes': '1024' });
    const reader = await kafka.consume(topic);
    const tooLarge = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'too large' } }))).id;
    const targetId = await addQueueTarget(stack, tooLarge, 'kafka', { brokers: [kafka.broker], topic });
    try {
      await sendJson(stack, tooLarge, { big: 'x'.repeat(4096) });
      const [failed] = await eventually(
        async () => {
          const { data } = await stack.client.GET('/v1/activity', {
            params: { query: { endpoint_id: tooLarge, status: 'errors' } },
          });
          return data?.data.length === 1 && data.data;
        },
        30_000,
        'the too-large delivery failed',
      );
      const row = await activityRowWhen(stack.client, failed!.id, (r) => r.status === 'errors', 'failed');
      expect(row.deliveries[0]!.attempts.map((a) => [a.state, a.error])).toEqual([
        ['failed', expect.stringContaining('(MESSAGE_TOO_LARGE)')],
      ]);
      await sendJson(stack, tooLarge, { small: true });
      const [record] = await reader.waitFor(1);
      expect(JSON.parse(record!.value!.toString())).toEqual({ small: true });
      const target = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
          params: { path: { endpointId: tooLarge, targetId } },
        }),
      );
      expect(target.flagged ?? null).toBeNull();
    } finally {
      await removeTarget(stack, tooLarge, targetId);
      await reader.close();
    }
  });

  it('a topic that does not exist (auto-creation off) flags the target', async () => {
    const targetId = await addQueueTarget(stack, endpointId, 'kafka', {
      brokers: [kafka.broker],
      topic: `e2e-missing-${randomUUID()}`,
    });
    try {
      await sendJson(stack, endpointId, { n: 2 });
      const flagged = await flagOf(stack, endpointId, targetId);
      expect(flagged.reason).toContain('(UNKNOWN_TOPIC_OR_PARTITION)');
    } finally {
      await removeTarget(stack, endpointId, targetId);
    }
  });
});

describe('the destination Kafka stopped mid-run and restarted', () => {
  it('deliveries sent while it is down are retried and arrive once it is back, none lost, none twice', async () => {
    const topic = await newTopic();
    const outage = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'kafka outage' } }))).id;
    const targetId = await addQueueTarget(
      stack,
      outage,
      'kafka',
      { brokers: [kafka.broker], topic },
      RIDES_OUT_AN_OUTAGE,
    );
    try {
      const before = await kafka.consume(topic);
      for (let i = 0; i < 3; i++) await sendJson(stack, outage, { before: i });
      await before.waitFor(3);
      await before.close();

      await kafka.stop('SIGTERM');
      for (let i = 0; i < 3; i++) await sendJson(stack, outage, { during: i });
      await retryingWith(stack, outage, 'Kafka unavailable (ECONNREFUSED)', 3);

      await kafka.start(120_000);
      const after = await kafka.consume(topic);
      const all = await after.waitFor(6);
      await completedRows(stack, outage, 6);
      expect(all.map((m) => JSON.parse(m.value!.toString()))).toEqual(
        expect.arrayContaining([
          { during: 0 },
          { during: 1 },
          { during: 2 },
          { before: 0 },
          { before: 1 },
          { before: 2 },
        ]),
      );
      expect(all).toHaveLength(6);
      expect(new Set(all.map((m) => header(m, 'relay-delivery-id'))).size).toBe(6);
    } finally {
      await removeTarget(stack, outage, targetId);
    }
  });
});
