import { validateRedisStreamConfig } from './config';

const fieldsOf = (input: unknown): string[] => {
  const v = validateRedisStreamConfig(input);
  return v.ok ? [] : v.errors.map((e) => e.field).sort();
};
const messageOf = (input: unknown): string => {
  const v = validateRedisStreamConfig(input);
  return v.ok ? '' : v.errors.map((e) => e.message).join('; ');
};

describe('Redis Streams target settings', () => {
  it('a URL and a stream key; max_length defaults to 0 (never trimmed)', () => {
    expect(validateRedisStreamConfig({ url: 'redis://:pw@127.0.0.1:6379/2', stream: 'webhooks:stripe' })).toEqual({
      ok: true,
      value: { url: 'redis://:pw@127.0.0.1:6379/2', stream: 'webhooks:stripe', max_length: 0 },
    });
    expect(
      validateRedisStreamConfig({ url: 'rediss://relay:pw@redis.example.com', stream: 's', max_length: 10_000 }).ok,
    ).toBe(true);
  });

  it.each([
    ['https://redis.example.com', 'url must start with redis:// or rediss://'],
    ['redis//redis.example.com', 'url must be a redis:// or rediss:// URL'],
    ['redis://:pw@redis.example.com/0/x', 'url path may only be a database number'],
    ['redis://:pw@redis.example.com/0?tls=false', 'url must not have a query or fragment'],
  ])('url %j is refused at config.url: %s', (url, message) => {
    expect(fieldsOf({ url, stream: 's' })).toEqual(['config.url']);
    expect(messageOf({ url, stream: 's' })).toContain(message);
  });

  it('a refused URL is never echoed: it holds the password', () => {
    expect(messageOf({ url: 'https://:hunter2@redis.example.com', stream: 's' })).not.toContain('hunter2');
  });

  it.each([['has space'], [''], ['x'.repeat(257)], ['tab\there']])(
    'stream %j is refused at config.stream',
    (stream) => {
      expect(fieldsOf({ url: 'redis://h', stream })).toEqual(['config.stream']);
    },
  );

  it.each([[-1], [1.5], ['100'], [1_000_000_001]])('max_length %j is refused at config.max_length', (max_length) => {
    expect(fieldsOf({ url: 'redis://h', stream: 's', max_length })).toEqual(['config.max_length']);
  });

  it('url and stream are required; unknown settings are refused by name', () => {
    expect(fieldsOf({ maxlen: 5 })).toEqual(['config.maxlen', 'config.stream', 'config.url']);
  });
});
