import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { TestReceiver } from '../../support/receiver';
import { attempt, delivery, saveConfig } from './fixtures';

describe('webhook target over plain HTTP (real local receiver)', () => {
  let receiver: TestReceiver;
  beforeEach(async () => {
    receiver = await TestReceiver.start();
  });
  afterEach(() => receiver.close());

  it('POSTs the payload bytes with its Content-Type and succeeds on 2xx', async () => {
    const { result } = await attempt(saveConfig({ url: receiver.url() }));
    expect(result).toEqual({ result: 'success', status: 200 });
    const [req] = await receiver.waitForRequests(1);
    expect(req?.method).toBe('POST');
    expect(req?.body.toString()).toBe('{"order":42}');
    expect(req?.headers['content-type']).toBe('application/json');
  });

  it.each([
    ['Bearer', { type: 'bearer', token: 'tok-1' }, 'authorization', 'Bearer tok-1'],
    ['API key', { type: 'api_key', header: 'X-Api-Key', key: 'key-1' }, 'x-api-key', 'key-1'],
    [
      'Basic',
      { type: 'basic', username: 'svc', password: 'pw' },
      'authorization',
      `Basic ${Buffer.from('svc:pw').toString('base64')}`,
    ],
  ])('outbound %s authentication reaches the receiver', async (_n, auth, header, value) => {
    await attempt(saveConfig({ url: receiver.url(), auth }));
    expect((await receiver.waitForRequests(1))[0]?.headers[header]).toBe(value);
  });

  it('outbound auth none sends no Authorization header', async () => {
    await attempt(saveConfig({ url: receiver.url() }));
    expect((await receiver.waitForRequests(1))[0]?.headers).not.toHaveProperty('authorization');
  });

  it('X-Relay-Event-Id is shared by every target and attempt; X-Relay-Delivery-Id by the attempts of one event × target; X-Relay-Attempt counts', async () => {
    const config = saveConfig({ url: receiver.url() });
    await attempt(config, delivery({ target_id: 'tg_a', delivery_id: 'dlv_it1_a', attempt: 1 }));
    await attempt(config, delivery({ target_id: 'tg_a', delivery_id: 'dlv_it1_a', attempt: 2 }));
    await attempt(config, delivery({ target_id: 'tg_b', delivery_id: 'dlv_it1_b', attempt: 1 }));
    const seen = (await receiver.waitForRequests(3)).map((r) => [
      r.headers['x-relay-event-id'],
      r.headers['x-relay-delivery-id'],
      r.headers['x-relay-attempt'],
    ]);
    expect(seen).toEqual([
      ['evt_it1', 'dlv_it1_a', '1'],
      ['evt_it1', 'dlv_it1_a', '2'],
      ['evt_it1', 'dlv_it1_b', '1'],
    ]);
  });

  it('custom headers carry rendered template variables ({{originating_ip}}, {{uuid}})', async () => {
    await attempt(
      saveConfig({
        url: receiver.url(),
        custom_headers: [
          { name: 'X-Origin', value: 'ip={{originating_ip}}' },
          { name: 'X-Req', value: '{{uuid}}' },
        ],
      }),
    );
    const [req] = await receiver.waitForRequests(1);
    expect(req?.headers['x-origin']).toBe('ip=198.51.100.7');
    expect(req?.headers['x-req']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('format None delivers an empty body', async () => {
    await attempt(saveConfig({ url: receiver.url() }), delivery({ payload: { content_type: null, body_base64: '' } }));
    const [req] = await receiver.waitForRequests(1);
    expect(req?.body).toHaveLength(0);
    expect(req?.headers).not.toHaveProperty('content-type');
  });

  it('query formats deliver a JSON body', async () => {
    const json = '{"a":"1","tags":["x","y"]}';
    await attempt(
      saveConfig({ url: receiver.url() }),
      delivery({ payload: { content_type: 'application/json', body_base64: Buffer.from(json).toString('base64') } }),
    );
    const [req] = await receiver.waitForRequests(1);
    expect(JSON.parse(req?.body.toString() ?? '')).toEqual({ a: '1', tags: ['x', 'y'] });
    expect(req?.headers['content-type']).toBe('application/json');
  });

  it('Standard Webhooks signing: the receiver verifies webhook-id, webhook-timestamp, webhook-signature', async () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    await attempt(saveConfig({ url: receiver.url(), signing: { standard_webhooks: true, secret } }));
    const [req] = await receiver.waitForRequests(1);
    const headers = {
      'webhook-id': String(req?.headers['webhook-id']),
      'webhook-timestamp': String(req?.headers['webhook-timestamp']),
      'webhook-signature': String(req?.headers['webhook-signature']),
    };
    expect(new Webhook(secret).verify(req?.body.toString() ?? '', headers)).toEqual({ order: 42 });
    expect(headers['webhook-id']).toBe('dlv_it1_a');
    expect(() =>
      new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(req?.body.toString() ?? '', headers),
    ).toThrow();
  });

  it.each([
    [500, 'retry'],
    [429, 'retry'],
    [404, 'permanent'],
    [410, 'permanent'],
  ])('a %i answer is classified %s', async (status, expected) => {
    receiver.respondWith({ status });
    expect((await attempt(saveConfig({ url: receiver.url() }))).result.result).toBe(expected);
  });

  it('a closed port is a retryable network failure', async () => {
    const port = receiver.port;
    await receiver.close();
    receiver = await TestReceiver.start();
    const { sent, result } = await attempt(saveConfig({ url: `http://127.0.0.1:${port}/` }));
    expect('error' in sent && sent.error.code).toBe('ECONNREFUSED');
    expect(result.result).toBe('retry');
  });
});
