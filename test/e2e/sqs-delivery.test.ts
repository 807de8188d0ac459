import { randomUUID } from 'node:crypto';
import { must } from '@relay/client';
import { createSqsLink } from '@relay/targets';
import { activityRowWhen } from '../support/api-client';
import {
  addQueueTarget,
  completedRows,
  flagOf,
  removeTarget,
  RIDES_OUT_AN_OUTAGE,
  retryingWith,
  sendJson,
  startOutputsStack,
} from '../support/queue-targets';
import { createQueue, queueDepth, receive, startElasticMq, startMotoSqs } from '../support/sqs-servers';
import type { SqsServer } from '../support/sqs-servers';
import type { Stack } from './stack';
import { startTogether } from '../support/start-together';

/** the target whose pooled client the link calls use */
const OWNER = { endpointId: 'ep_owner', targetId: 'tg_owner' };

/*
 * Amazon SQS targets (docs/targets-queues.md "Amazon SQS"), every service its own process on the
 * worker's shared stack plus one outputs deliverer of this file's. The queues are on two private
 * servers, started once for the file: ElasticMQ (deliveries, FIFO, the outage) and moto's server
 * with IAM checks on (credentials: ElasticMQ accepts any). Each test makes queues of its own.
 */

let stack: Stack;
let endpointId: string;
let stopStack: () => Promise<void>;
let elasticmq: SqsServer;
let moto: Awaited<ReturnType<typeof startMotoSqs>>;

beforeAll(async () => {
  let on: Awaited<ReturnType<typeof startOutputsStack>>;
  [on, elasticmq, moto] = await startTogether(
    [startOutputsStack('sqs'), (o) => o.stop()],
    [startElasticMq('sqs'), (s) => s.close()],
    [startMotoSqs('sqs-iam'), (s) => s.close()],
  );
  ({ stack, endpointId, stop: stopStack } = on);
});

afterAll(async () => {
  await stopStack?.();
  await elasticmq?.close();
  await moto?.close();
});

const someKeys = { region: 'us-east-1', access_key_id: 'AKIAELASTICMQTEST', secret_access_key: 'any-Secret-9' };
const attribute = (m: { MessageAttributes?: Record<string, { StringValue?: string }> }, name: string) =>
  m.MessageAttributes?.[name]?.StringValue;

describe('SQS target, end to end', () => {
  it('an event becomes one message: the body as sent, the event, delivery and endpoint ids and the content type as attributes', async () => {
    const queueUrl = await createQueue(elasticmq, `e2e-${randomUUID()}`);
    const targetId = await addQueueTarget(stack, endpointId, 'sqs', { queue_url: queueUrl, ...someKeys });
    try {
      await sendJson(stack, endpointId, { type: 'paid', order: { id: 42 } });
      const [m] = await receive(elasticmq, queueUrl, 1);
      expect(m!.Body).toBe('{"type":"paid","order":{"id":42}}');
      expect(attribute(m!, 'content-type')).toBe('application/json');
      expect(attribute(m!, 'relay-endpoint-id')).toBe(endpointId);
      const eventId = attribute(m!, 'relay-event-id')!;
      const row = await activityRowWhen(stack.client, eventId, (r) => r.status === 'completed', 'delivered');
      expect(row.deliveries).toEqual([
        expect.objectContaining({ delivery_id: attribute(m!, 'relay-delivery-id'), target_id: targetId }),
      ]);
      expect(row.deliveries[0]!.attempts.map((a) => [a.state, a.status_code])).toEqual([['delivered', null]]);
    } finally {
      await removeTarget(stack, endpointId, targetId);
    }
  });

  it('a FIFO queue: grouped by the rendered template (the endpoint id when the payload lacks it), deduplicated by the delivery id', async () => {
    const queueUrl = await createQueue(elasticmq, `e2e-${randomUUID()}.fifo`);
    const targetId = await addQueueTarget(stack, endpointId, 'sqs', {
      queue_url: queueUrl,
      ...someKeys,
      message_group_id: '{{customer.id}}',
    });
    try {
      await sendJson(stack, endpointId, { customer: { id: 'c-7' }, n: 1 });
      await sendJson(stack, endpointId, { n: 2 });
      const got = await receive(elasticmq, queueUrl, 2);
      const byN = new Map(got.map((m) => [JSON.parse(m.Body!).n as number, m]));
      expect(byN.get(1)!.Attributes).toMatchObject({ MessageGroupId: 'c-7' });
      expect(byN.get(2)!.Attributes).toMatchObject({ MessageGroupId: endpointId });
      for (const m of got) expect(m.Attributes!.MessageDeduplicationId).toBe(attribute(m, 'relay-delivery-id'));
    } finally {
      await removeTarget(stack, endpointId, targetId);
    }
  });

  it('the same delivery sent twice to a FIFO queue is stored once', async () => {
    const queueUrl = await createQueue(elasticmq, `e2e-${randomUUID()}.fifo`);
    const link = createSqsLink({
      allowCidrs: ['127.0.0.1/32'],
      connectTimeoutMs: 5000,
      commandTimeoutMs: 5000,
      maxClients: 1,
      idleMs: 60_000,
    });
    try {
      const queue = { queueUrl, endpoint: elasticmq.url, region: 'us-east-1', accessKeyId: 'k', secretAccessKey: 's' };
      const message = { body: 'once', attributes: {}, groupId: 'g', deduplicationId: 'dlv_same' };
      const first = await link.send(OWNER, queue, message);
      expect(first).toEqual({ messageId: expect.any(String) });
      expect(await link.send(OWNER, queue, message)).toEqual(first);
      await link.send(OWNER, queue, { ...message, body: 'after', deduplicationId: 'dlv_next' });
      const got = await receive(elasticmq, queueUrl, 2);
      expect(got.map((m) => m.Body)).toEqual(['once', 'after']);
    } finally {
      link.close();
    }
  });
});

describe('SQS credentials on a server that verifies SigV4 signatures (moto, IAM checks on)', () => {
  it('the allowed key delivers; a wrong secret (SignatureDoesNotMatch) and an unknown key (InvalidClientTokenId) flag their targets; no secret in any response', async () => {
    const queueUrl = await createQueue(moto, `e2e-${randomUUID()}`);
    const endpoint = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'signed' } }))).id;
    const right = { queue_url: queueUrl, region: 'us-east-1', access_key_id: moto.accessKeyId };
    const ok = await addQueueTarget(stack, endpoint, 'sqs', { ...right, secret_access_key: moto.secretAccessKey });
    const wrongSecret = await addQueueTarget(stack, endpoint, 'sqs', { ...right, secret_access_key: 'wrong-Secret-1' });
    const unknownKey = await addQueueTarget(stack, endpoint, 'sqs', {
      ...right,
      access_key_id: 'AKIAUNKNOWNKEY000000',
      secret_access_key: 'wrong-Secret-2',
    });
    try {
      await sendJson(stack, endpoint, { signed: true });
      const [m] = await receive(moto, queueUrl, 1);
      expect(m!.Body).toBe('{"signed":true}');
      expect((await flagOf(stack, endpoint, wrongSecret)).reason).toContain(
        'the request signature does not match (SignatureDoesNotMatch)',
      );
      expect((await flagOf(stack, endpoint, unknownKey)).reason).toContain(
        'SQS does not know the access key (InvalidClientTokenId)',
      );
      const list = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId: endpoint } } }),
      );
      expect(list.data.find((t) => t.id === ok)?.flagged ?? null).toBeNull();
      const shown = JSON.stringify(list);
      for (const secret of [moto.secretAccessKey, 'wrong-Secret-1', 'wrong-Secret-2', moto.accessKeyId])
        expect(shown).not.toContain(secret);
    } finally {
      for (const id of [ok, wrongSecret, unknownKey]) await removeTarget(stack, endpoint, id);
    }
  });
});

describe('the destination SQS server stopped mid-run and restarted', () => {
  it('deliveries sent while it is down are retried and arrive once it is back: none lost, none twice (FIFO)', async () => {
    const queueUrl = await createQueue(elasticmq, `e2e-${randomUUID()}.fifo`);
    const outage = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'outage' } }))).id;
    const targetId = await addQueueTarget(
      stack,
      outage,
      'sqs',
      { queue_url: queueUrl, ...someKeys, message_group_id: '{{n}}' },
      RIDES_OUT_AN_OUTAGE,
    );
    try {
      for (let i = 0; i < 3; i++) await sendJson(stack, outage, { n: i, before: true });
      await receive(elasticmq, queueUrl, 3);

      await elasticmq.stop('SIGTERM');
      for (let i = 3; i < 6; i++) await sendJson(stack, outage, { n: i, during: true });
      await retryingWith(stack, outage, 'SQS unavailable (ECONNREFUSED)', 3);

      await elasticmq.start(60_000);
      const after = await receive(elasticmq, queueUrl, 3, 60_000);
      expect(after.map((m) => JSON.parse(m.Body!).n).sort()).toEqual([3, 4, 5]);
      for (const m of after) {
        const row = await activityRowWhen(
          stack.client,
          attribute(m, 'relay-event-id')!,
          (r) => r.status === 'completed',
          'delivered',
        );
        expect(row.deliveries.map((d) => d.delivery_id)).toEqual([attribute(m, 'relay-delivery-id')]);
      }
      await completedRows(stack, outage, 6);
      // every attempt is over and all six were read: nothing more is in the queue
      expect(await queueDepth(elasticmq, queueUrl)).toBe(0);
    } finally {
      await removeTarget(stack, outage, targetId);
    }
    // the sum of its waits: the server's start and the three deliveries may each take a minute on a loaded machine
  }, 240_000);
});
