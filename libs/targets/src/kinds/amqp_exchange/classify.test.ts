import { PayloadError } from '../../kind';
import { jsonDelivery } from '../delivery.fixture';
import { classifyAmqpPublish } from './classify';
import { amqpMessage } from './kind';

const failed = (code: string) => classifyAmqpPublish({ error: { code, message: code } });

describe('RabbitMQ publish outcomes', () => {
  it('a confirm (basic.ack) is a success, with no status code', () => {
    expect(classifyAmqpPublish({ confirmed: true })).toEqual({ result: 'success', status: null });
  });

  it.each([
    ['ACCESS_REFUSED', 'check the user and password in the URL'],
    ['NOT_ALLOWED', 'virtual host'],
    ['NOT_FOUND', 'the exchange does not exist'],
    ['SSRF_BLOCKED', 'broker not dialled'],
  ])('%s flags the target: %s', (code, reason) => {
    expect(failed(code)).toEqual({
      result: 'permanent',
      status: null,
      error: expect.stringContaining(reason),
      flagTarget: true,
    });
  });

  it('a returned message (no queue bound) and a nack are retried', () => {
    expect(classifyAmqpPublish({ returned: true })).toMatchObject({
      result: 'retry',
      error: expect.stringContaining('unroutable'),
    });
    expect(failed('NACK')).toMatchObject({ result: 'retry', error: expect.stringContaining('basic.nack') });
  });

  it.each([['ECONNREFUSED'], ['ETIMEDOUT'], ['ECONNCLOSED'], ['CONNECTION_FORCED']])('%s is retried', (code) => {
    expect(failed(code)).toEqual({ result: 'retry', status: null, error: `broker unavailable (${code})` });
  });
});

describe('the message of one delivery', () => {
  const d = jsonDelivery('amqp_exchange', '{"type":"paid"}');
  const config = { url: 'sealed', exchange: 'webhooks', routing_key: 'orders.{{type}}' };

  it('message_id is the delivery id; the routing key is rendered from the payload', () => {
    expect(amqpMessage(config, d)).toEqual({
      exchange: 'webhooks',
      routingKey: 'orders.paid',
      body: Buffer.from('{"type":"paid"}'),
      messageId: 'dlv_1',
      contentType: 'application/json',
      timestamp: Date.parse('2026-11-28T10:00:00.000Z') / 1000,
      headers: { 'relay-event-id': 'evt_1', 'relay-endpoint-id': 'ep_1' },
    });
  });

  it('a routing key rendered past 255 bytes is a payload error (the target is not flagged)', () => {
    const long = {
      ...d,
      payload: { ...d.payload, body_base64: Buffer.from(JSON.stringify({ type: 'x'.repeat(300) })).toString('base64') },
    };
    expect(() => amqpMessage(config, long)).toThrow(PayloadError);
  });
});
