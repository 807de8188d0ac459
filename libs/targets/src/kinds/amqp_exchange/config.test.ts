import { validateAmqpExchangeConfig } from './config';

const problems = (input: unknown): Array<{ field: string; message: string }> => {
  const v = validateAmqpExchangeConfig(input);
  return v.ok ? [] : v.errors;
};

describe('RabbitMQ exchange target settings', () => {
  it('a URL and an exchange; the routing key template defaults to empty', () => {
    expect(
      validateAmqpExchangeConfig({ url: 'amqps://relay:pw@rabbit.example.com/orders', exchange: 'webhooks' }),
    ).toEqual({
      ok: true,
      value: { url: 'amqps://relay:pw@rabbit.example.com/orders', exchange: 'webhooks', routing_key: '' },
    });
    expect(
      validateAmqpExchangeConfig({
        url: 'amqp://u:p@127.0.0.1:5672/%2Fteam',
        exchange: 'x.y',
        routing_key: 'orders.{{type}}',
      }).ok,
    ).toBe(true);
  });

  it.each([
    ['https://rabbit.example.com', 'url must start with amqp:// or amqps://'],
    ['rabbit//host', 'url must be an amqp:// or amqps:// URL'],
    ['amqp://u:p@rabbit.example.com/a/b', 'url path may only be the virtual host'],
    ['amqp://u:p@rabbit.example.com/?heartbeat=0', 'url must not have a query or fragment'],
  ])('url %j is refused at config.url: %s', (url, message) => {
    expect(problems({ url, exchange: 'x' })).toEqual([
      { field: 'config.url', message: expect.stringContaining(message) },
    ]);
  });

  it('a refused URL is never echoed: it holds the password', () => {
    expect(JSON.stringify(problems({ url: 'https://u:hunter2@rabbit.example.com', exchange: 'x' }))).not.toContain(
      'hunter2',
    );
  });

  it.each([[''], ['amq.topic'], ['has space'], ['x'.repeat(256)]])(
    'exchange %j is refused at config.exchange',
    (exchange) => {
      expect(problems({ url: 'amqp://h', exchange }).map((p) => p.field)).toEqual(['config.exchange']);
    },
  );

  it.each([['a\nb'], ['k'.repeat(256)]])('routing_key %j is refused at config.routing_key', (routing_key) => {
    expect(problems({ url: 'amqp://h', exchange: 'x', routing_key }).map((p) => p.field)).toEqual([
      'config.routing_key',
    ]);
  });
});
