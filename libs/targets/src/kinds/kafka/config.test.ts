import { validateKafkaConfig } from './config';

const problems = (input: unknown): Array<{ field: string; message: string }> => {
  const v = validateKafkaConfig(input);
  return v.ok ? [] : v.errors;
};

describe('Kafka topic target settings', () => {
  it('brokers and a topic; no key, no SASL and no TLS by default', () => {
    expect(
      validateKafkaConfig({ brokers: [' kafka-1.example.com:9093 ', '10.0.0.7:9092'], topic: 'webhooks' }),
    ).toEqual({
      ok: true,
      value: {
        brokers: ['kafka-1.example.com:9093', '10.0.0.7:9092'],
        topic: 'webhooks',
        key_path: '',
        sasl: { mechanism: 'none' },
        tls: false,
      },
    });
    expect(
      validateKafkaConfig({
        brokers: ['[::1]:9092'],
        topic: 'a.b_c-D9',
        key_path: 'data.customer.id',
        sasl: { mechanism: 'scram-sha-512', username: 'relay', password: 'pw' },
        tls: true,
      }).ok,
    ).toBe(true);
  });

  it.each([
    ['kafka.example.com'],
    ['kafka.example.com:0'],
    ['kafka.example.com:65536'],
    ['http://k:9092'],
    ['k :9092'],
  ])('broker %j is refused at its place in config.brokers', (broker) => {
    expect(problems({ brokers: ['ok.example.com:9092', broker], topic: 't' })).toEqual([
      { field: 'config.brokers[1]', message: expect.stringContaining('host:port') },
    ]);
  });

  it('no brokers, or more than 16, are refused at config.brokers', () => {
    expect(problems({ brokers: [], topic: 't' })).toEqual([
      { field: 'config.brokers', message: 'brokers must list at least one host:port' },
    ]);
    expect(problems({ topic: 't' }).map((p) => p.field)).toEqual(['config.brokers']);
    const many = Array.from({ length: 17 }, (_, i) => `k${i}.example.com:9092`);
    expect(problems({ brokers: many, topic: 't' })).toEqual([
      { field: 'config.brokers', message: 'at most 16 brokers (got 17)' },
    ]);
  });

  it.each([[''], ['.'], ['..'], ['has space'], ['t/x'], ['x'.repeat(250)]])(
    'topic %j is refused at config.topic (Kafka topic name rules)',
    (topic) => {
      expect(problems({ brokers: ['k:9092'], topic }).map((p) => p.field)).toEqual(['config.topic']);
    },
  );

  it('a topic of 249 characters is accepted', () => {
    expect(problems({ brokers: ['k:9092'], topic: 'x'.repeat(249) })).toEqual([]);
  });

  it.each([['a..b'], ['.a'], ['__proto__.x'], ['a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g']])(
    'key_path %j is refused at config.key_path',
    (key_path) => {
      expect(problems({ brokers: ['k:9092'], topic: 't', key_path }).map((p) => p.field)).toEqual(['config.key_path']);
    },
  );

  it('SASL needs a known mechanism, a user name and a password', () => {
    expect(problems({ brokers: ['k:9092'], topic: 't', sasl: { mechanism: 'gssapi' } }).map((p) => p.field)).toEqual([
      'config.sasl.mechanism',
    ]);
    expect(
      problems({ brokers: ['k:9092'], topic: 't', sasl: { mechanism: 'plain', username: 'u' } }).map((p) => p.field),
    ).toEqual(['config.sasl.password']);
    expect(
      problems({ brokers: ['k:9092'], topic: 't', sasl: { mechanism: 'scram-sha-256', password: 'p' } }).map(
        (p) => p.field,
      ),
    ).toEqual(['config.sasl.username']);
  });

  it('tls must be a boolean', () => {
    expect(problems({ brokers: ['k:9092'], topic: 't', tls: 'yes' }).map((p) => p.field)).toEqual(['config.tls']);
  });
});
