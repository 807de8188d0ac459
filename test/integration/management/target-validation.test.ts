import { must } from '@relay/client';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/**
 * Saving a target through the management API (docs/management-api.md): a setting the
 * deliverers could never send is refused at save time with 400 validation_failed and a
 * `{field, message}` per problem — never saved with 201 to fail every delivery later.
 */
let m: ManagementFixture;
let endpointId: string;

beforeAll(async () => {
  m = await startManagement('target-validation');
  endpointId = (await must(m.client.POST('/v1/endpoints', { body: { name: 'targets' } }))).id;
});
afterAll(() => m.close());

// raw: target settings the deliverers could never send, for the 400 naming the field
const create = (body: Record<string, unknown>) => m.api('post', `/v1/endpoints/${endpointId}/targets`, body);
const targetCount = async () =>
  (await must(m.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }))).data.length;

describe("header values are checked against what Node's HTTP client sends", () => {
  it.each([
    [
      '€ in a custom header value',
      { custom_headers: [{ name: 'X-Price', value: 'costs €5' }] },
      'config.custom_headers[0].value',
    ],
    ['U+2028 in a Bearer token', { auth: { type: 'bearer', token: 'abc\u2028def' } }, 'config.auth.token'],
    ['U+2028 in an API key', { auth: { type: 'api_key', header: 'X-Api-Key', key: 'key\u2028' } }, 'config.auth.key'],
  ])('%s: 400 validation_failed naming the field, nothing saved, the value not echoed', async (_n, config, field) => {
    const before = await targetCount();
    const res = await create({
      kind: 'webhook',
      name: 'w',
      config: { url: 'https://hooks.example.com/in', ...config },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ field, message: expect.stringMatching(/contains U\+(20AC|2028) at character \d+/) }],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/costs|abc|key\u2028/);
    expect(await targetCount()).toBe(before);
  });
});

describe('saving a target reports every problem at once, and unknown fields are refused by name', () => {
  const fields = (res: { body: { errors?: { field: string }[] } }) =>
    (res.body.errors ?? []).map((e) => e.field).sort();

  it('webhook: every problem of the target and of its config in one 400', async () => {
    const res = await create({
      kind: 'webhook',
      enabled: 'yes',
      retry_schedule_ms: [-1],
      colour: 'red',
      config: {
        url: 'ftp://example.com/',
        auth: { type: 'api_key', header: 'bad header', key: '' },
        custom_headers: [
          { name: 'Host', value: 'x' },
          { name: 'X-Ok', value: '{{nope}}' },
          { name: 'X-Euro', value: '€' },
        ],
        forward_headers: { mode: 'list', names: ['Cookie'] },
        signing: { standard_webhooks: true, secret: 'not-whsec' },
        enforce_http: false,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fields(res)).toEqual([
      'colour',
      'config.auth.header',
      'config.auth.key',
      'config.custom_headers[0].name',
      'config.custom_headers[1].value',
      'config.custom_headers[2].value',
      'config.enforce_http',
      'config.forward_headers.names[0]',
      'config.signing.secret',
      'config.url',
      'enabled',
      'name',
      'retry_schedule_ms[0]',
    ]);
  });

  it('embed_chat: every problem of the target and of its config in one 400', async () => {
    const res = await create({
      kind: 'embed_chat',
      name: '',
      flagged: null,
      config: { url: 'https://ptb.discord.com/api/webhooks/1/t', name: '', template: '', tts: 'yes', colour: 'red' },
    });
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual([
      'config.colour',
      'config.name',
      'config.template',
      'config.tts',
      'config.url',
      'flagged',
      'name',
    ]);
  });

  it('block_chat: every problem of the target and of its config in one 400', async () => {
    const res = await create({
      kind: 'block_chat',
      name: 'b',
      extra: 1,
      config: { url: 'http://hooks.slack-gov.com/services/x', template: 7, markup: 'off', mrkdwn: false },
    });
    expect(res.status).toBe(400);
    // the chat kind's "target name" is the target's own name: never asked twice
    expect(fields(res)).toEqual(['config.markup', 'config.mrkdwn', 'config.template', 'config.url', 'extra']);
  });

  it('redis_stream: a bad URL, stream key and MAXLEN each named in one 400, the URL never echoed', async () => {
    const before = await targetCount();
    const res = await create({
      kind: 'redis_stream',
      name: 'stream',
      config: { url: 'https://:hunter2@redis.example.com', stream: 'two words', max_length: -5 },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fields(res)).toEqual(['config.max_length', 'config.stream', 'config.url']);
    expect(res.body.errors).toContainEqual({
      field: 'config.url',
      message: 'url must start with redis:// or rediss://',
    });
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
    expect(await targetCount()).toBe(before);
  });

  it('amqp_exchange: a bad URL, exchange and routing key each named in one 400, the URL never echoed', async () => {
    const res = await create({
      kind: 'amqp_exchange',
      name: 'broker',
      config: { url: 'amqp://u:hunter2@rabbit.example.com/a/b', exchange: 'amq.topic', routing_key: 'k'.repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fields(res)).toEqual(['config.exchange', 'config.routing_key', 'config.url']);
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });

  it('mqtt: a bad URL, a wildcard topic and an unknown protocol version each named in one 400, the URL never echoed', async () => {
    const res = await create({
      kind: 'mqtt',
      name: 'broker',
      config: { url: 'mqtt://u:hunter2@broker.example.com/t', topic: 'hooks/+/{{type}}', protocol_version: 3 },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fields(res)).toEqual(['config.protocol_version', 'config.topic', 'config.url']);
    expect(res.body.errors).toContainEqual({
      field: 'config.topic',
      message: 'topic contains a wildcard (+ or #), which only subscriptions may use',
    });
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });

  it('nats_jetstream: a server with credentials, a wildcard subject and a bad NKey seed each named in one 400, no secret echoed', async () => {
    const before = await targetCount();
    const res = await create({
      kind: 'nats_jetstream',
      name: 'nats',
      config: {
        servers: ['nats://a.example.com', 'nats://relay:hunter2@b.example.com'],
        subject: 'orders.>',
        auth: { type: 'nkey', seed: 'SUhunter3' },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fields(res)).toEqual(['config.auth.seed', 'config.servers[1]', 'config.subject']);
    expect(JSON.stringify(res.body)).not.toMatch(/hunter[23]/);
    expect(await targetCount()).toBe(before);
  });

  it('sqs: a FIFO queue without a message group, a region its URL contradicts and a bad key each named in one 400, no key echoed', async () => {
    const before = await targetCount();
    const res = await create({
      kind: 'sqs',
      name: 'queue',
      config: {
        queue_url: 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders.fifo',
        region: 'us-east-1',
        access_key_id: 'AKIA hunter2',
        secret_access_key: 'secret-hunter3',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fields(res)).toEqual(['config.access_key_id', 'config.message_group_id', 'config.region']);
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|hunter3/);
    expect(await targetCount()).toBe(before);
  });

  it('s3: a key template without the delivery id and an IP endpoint without path-style each named in one 400, no key echoed', async () => {
    const before = await targetCount();
    const res = await create({
      kind: 's3',
      name: 'archive',
      config: {
        endpoint: 'http://10.0.0.5:9000',
        region: 'us-east-1',
        bucket: 'webhooks-archive',
        key_template: 'in/{{date}}/{{event_id}}',
        access_key_id: 'AKIAARCHIVE',
        secret_access_key: 'secret-hunter4',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fields(res)).toEqual(['config.key_template', 'config.path_style']);
    expect(JSON.stringify(res.body)).not.toContain('hunter4');
    expect(await targetCount()).toBe(before);
  });

  it('kafka: bad brokers, topic, key path and SASL each named in one 400, the password never echoed', async () => {
    const res = await create({
      kind: 'kafka',
      name: 'cluster',
      config: {
        brokers: ['kafka-1.example.com:9093', 'kafka-2.example.com'],
        topic: '..',
        key_path: 'customer..id',
        sasl: { mechanism: 'scram-sha-256', password: 'hunter2' },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fields(res)).toEqual(['config.brokers[1]', 'config.key_path', 'config.sasl.username', 'config.topic']);
    expect(res.body.errors).toContainEqual({ field: 'config.topic', message: 'topic must not be "." or ".."' });
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });

  it('an unknown top-level field is refused by name ("is not a known field") even when everything else is valid, as endpoints do', async () => {
    const before = await targetCount();
    const res = await create({
      kind: 'webhook',
      name: 'w',
      config: { url: 'https://hooks.example.com/in' },
      description: 'mine',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'description', message: 'is not a known field' }]);
    expect(await targetCount()).toBe(before);
  });

  it('an unknown config setting of a chat kind is refused by name, not dropped', async () => {
    const res = await create({
      kind: 'block_chat',
      name: 'b',
      config: { url: 'https://hooks.slack.com/services/T1/B1/abc', name: 'b', markdown: false },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'config.markdown', message: 'unknown setting' }]);
  });

  it('a PATCH reports every problem at once too', async () => {
    const created = await create({ kind: 'webhook', name: 'w', config: { url: 'https://hooks.example.com/in' } });
    expect(created.status).toBe(201);
    // raw: a change the document refuses on every field at once
    const res = await m.api('patch', `/v1/endpoints/${endpointId}/targets/${created.body.id}`, {
      name: '',
      enabled: 1,
      config: {},
      colour: 'red',
    });
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual(['colour', 'config', 'enabled', 'name']);
  });
});
