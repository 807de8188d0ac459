import { PassThrough } from 'node:stream';
import type { ConsumeMessage } from 'amqplib';
import { ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1, DELIVERY_V1, encodeMessage } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { createLogger } from '@relay/logging';
import { decodingHandler } from './decoding-consumer';

const delivery: DeliveryMessageV1 = {
  type: DELIVERY_V1,
  event_id: 'evt_1',
  delivery_id: 'dlv_1',
  attempt: 1,
  account_id: 'acc',
  endpoint_id: 'ep',
  target_id: 'tg',
  target_kind: 'webhook',
  received_at: '2030-01-01T00:00:00.000Z',
  request: { method: 'POST', source_ip: '127.0.0.1', headers: {}, query: '' },
  payload: { content_type: null, body_base64: '' },
};

function amqpMessage(content: Buffer | string, headers: Record<string, unknown> = {}): ConsumeMessage {
  return {
    content: Buffer.from(content),
    fields: {},
    properties: { messageId: 'msg_1', headers },
  } as unknown as ConsumeMessage;
}

function setup(handle = async (): Promise<'ack'> => 'ack') {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (c: Buffer) =>
    lines.push(
      ...c
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    ),
  );
  const seen: unknown[] = [];
  const handler = decodingHandler({
    queue: 'q.deliveries',
    accepts: [DELIVERY_V1],
    logger: createLogger({ service: 'test', level: 'info', stream }),
    handle: async (message, properties) => {
      seen.push([message, properties.headers]);
      return handle();
    },
  });
  return { handler, seen, lines: async () => (await new Promise((r) => setImmediate(r)), lines) };
}

describe('decodingHandler: decode against the contract, or dead-letter', () => {
  it('a message of an accepted type reaches the handler, decoded, with the properties of its copy', async () => {
    const { handler, seen } = setup();
    expect(await handler(amqpMessage(encodeMessage(delivery), { 'x-delivery-count': 2 }))).toBe('ack');
    expect(seen).toEqual([[delivery, { 'x-delivery-count': 2 }]]);
  });

  it("the handler's disposition is what the consumer applies", async () => {
    const { handler } = setup(async () => 'requeue' as 'ack');
    expect(await handler(amqpMessage(encodeMessage(delivery)))).toBe('requeue');
  });

  it.each([
    ['not JSON', '{"type":', 'message body is not JSON'],
    ['an unknown type', JSON.stringify({ type: 'relay.nope.v9' }), 'unknown message type "relay.nope.v9"'],
    ['a type this queue does not carry', JSON.stringify({ type: ACTIVITY_ATTEMPT_V1 }), `${ACTIVITY_ATTEMPT_V1}:`],
    ['a known type that fails its schema', JSON.stringify({ ...delivery, attempt: 'one' }), `${DELIVERY_V1}:`],
  ])('%s → dead-lettered at once with one log line; the handler never sees it', async (_n, body, error) => {
    const { handler, seen, lines } = setup();
    expect(await handler(amqpMessage(body))).toBe('dead_letter');
    expect(seen).toEqual([]);
    const logged = await lines();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 'error',
      message: 'invalid message dead-lettered',
      queue: 'q.deliveries',
      message_id: 'msg_1',
    });
    expect(String(logged[0]?.error)).toContain(error);
  });

  it('a type accepted here among several decodes too', async () => {
    const stream = new PassThrough();
    const handler = decodingHandler({
      queue: 'q',
      accepts: [ACTIVITY_REQUEST_V1, DELIVERY_V1],
      logger: createLogger({ service: 'test', level: 'info', stream }),
      handle: async () => 'ack',
    });
    expect(await handler(amqpMessage(encodeMessage(delivery)))).toBe('ack');
  });

  it('a handler failure is not a contract problem: it propagates, and QueueConsumer requeues', async () => {
    const { handler } = setup(async () => {
      throw new Error('store down');
    });
    await expect(handler(amqpMessage(encodeMessage(delivery)))).rejects.toThrow('store down');
  });
});
