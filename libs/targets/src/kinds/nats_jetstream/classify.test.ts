import { PayloadError } from '../../kind';
import { classifyNatsPublish } from './classify';
import { natsMessage } from './kind';
import { jsonDelivery } from '../delivery.fixture';

const failed = (code: string, status?: number, message = code) =>
  classifyNatsPublish({ error: { code, message, ...(status !== undefined ? { status } : {}) } });

describe('NATS JetStream publish outcomes', () => {
  it('a PubAck is a success; one marked duplicate too (an earlier attempt landed)', () => {
    expect(classifyNatsPublish({ ack: { stream: 'S', seq: 7, duplicate: false } })).toEqual({
      result: 'success',
      status: null,
    });
    expect(classifyNatsPublish({ ack: { stream: 'S', seq: 7, duplicate: true } })).toEqual({
      result: 'success',
      status: null,
    });
  });

  it.each([
    ['AUTHORIZATION_VIOLATION', undefined, 'refused the credentials'],
    ['AUTHENTICATION_EXPIRED', undefined, 'expired credentials'],
    ['PERMISSIONS_VIOLATION', undefined, 'may not publish to this subject'],
    ['NO_RESPONDERS', undefined, 'no stream captures this subject'],
    ['TLS_UNAVAILABLE', undefined, 'does not offer TLS'],
    ['JS_10039', 503, 'not enabled for the account'],
    ['JS_10059', 404, 'stream was not found'],
    ['JS_10060', 400, 'another stream'],
    ['JS_10109', 400, 'sealed'],
    ['SSRF_BLOCKED', undefined, 'not dialled'],
    ['SELF_SIGNED_CERT_IN_CHAIN', undefined, 'not dialled'],
  ])('%s flags the target: %s', (code, status, reason) => {
    expect(failed(code, status)).toEqual({
      result: 'permanent',
      status: null,
      error: expect.stringContaining(reason),
      flagTarget: true,
    });
  });

  it('another JetStream API error under 500 flags the target with the server’s words', () => {
    expect(failed('JS_10071', 400, 'wrong last sequence: 3')).toEqual({
      result: 'permanent',
      status: null,
      error: 'JetStream refused the publish (10071): wrong last sequence: 3',
      flagTarget: true,
    });
  });

  it.each([
    ['JS_10054', 400],
    ['MAX_PAYLOAD', undefined],
  ])('%s (too large) fails this delivery only: the target is not flagged', (code, status) => {
    expect(failed(code, status)).toMatchObject({ result: 'permanent', flagTarget: false });
  });

  it.each([
    ['JS_10008', 503, 'JetStream system temporarily unavailable'],
    ['JS_10077', 503, 'maximum messages exceeded'],
    ['JS_10023', 503, 'insufficient resources'],
    ['JS_10047', 500, 'insufficient storage resources available'],
    ['JS_10158', 409, 'duplicate message id is in process'],
  ])('%s is retried, with the server’s words', (code, status, message) => {
    expect(failed(code, status, message)).toEqual({
      result: 'retry',
      status: null,
      error: `JetStream refused the publish (${code.slice(3)}): ${message}`,
    });
  });

  it.each([['ECONNREFUSED'], ['ETIMEDOUT'], ['ECONNCLOSED'], ['ENOTFOUND'], ['ENATS']])('%s is retried', (code) => {
    expect(failed(code)).toEqual({ result: 'retry', status: null, error: `NATS server unavailable (${code})` });
  });
});

describe('the message of one delivery', () => {
  const d = jsonDelivery('nats_jetstream', '{"type":"paid"}');
  const config = { servers: ['nats://h'], subject: 'orders.{{type}}', auth: { type: 'none' as const } };
  const withBody = (body: unknown) => jsonDelivery('nats_jetstream', JSON.stringify(body));

  it('Nats-Msg-Id is the delivery id; the subject is rendered from the payload; the ids ride as headers', () => {
    expect(natsMessage(config, d)).toEqual({
      subject: 'orders.paid',
      body: Buffer.from('{"type":"paid"}'),
      msgId: 'dlv_1',
      headers: {
        'Relay-Event-Id': 'evt_1',
        'Relay-Endpoint-Id': 'ep_1',
        'Relay-Received-At': '2026-11-28T10:00:00.000Z',
        'Content-Type': 'application/json',
      },
    });
  });

  it.each([[{}], [{ type: 'a b' }], [{ type: '>' }], [{ type: 'x'.repeat(1100) }]])(
    'a subject rendered invalid from %j is a payload error (the target is not flagged)',
    (body) => {
      expect(() => natsMessage(config, withBody(body))).toThrow(PayloadError);
    },
  );

  it('a value with dots adds tokens', () => {
    expect(natsMessage(config, withBody({ type: 'eu.paid' })).subject).toBe('orders.eu.paid');
  });
});
