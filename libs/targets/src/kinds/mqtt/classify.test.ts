import { PayloadError } from '../../kind';
import { jsonDelivery } from '../delivery.fixture';
import { classifyMqttPublish } from './classify';
import { mqttMessage } from './kind';

const refused = (stage: 'connect' | 'publish', reasonCode: number) =>
  classifyMqttPublish({ error: { stage, code: `RC_${reasonCode}`, reasonCode, message: 'refused' } });
const failed = (code: string) => classifyMqttPublish({ error: { stage: 'connect', code, message: code } });

describe('MQTT publish outcomes', () => {
  it('a PUBACK is a success, with no status code', () => {
    expect(classifyMqttPublish({ acked: true })).toEqual({ result: 'success', status: null });
  });

  it.each([
    [4, 'refused the user name or password (CONNACK 4)'],
    [5, 'not authorized'],
    [1, 'choose protocol version 5'],
    [0x86, 'refused the user name or password (CONNACK 0x86)'],
    [0x87, 'not authorized'],
    [0x84, 'choose protocol version 4'],
    [0x8a, 'banned'],
    [0x9d, 'change the URL'],
  ])('CONNACK %i flags the target: %s', (rc, reason) => {
    expect(refused('connect', rc)).toEqual({
      result: 'permanent',
      status: null,
      error: expect.stringContaining(reason),
      flagTarget: true,
    });
  });

  it.each([
    [3, 'CONNACK 3'],
    [0x88, 'CONNACK 0x88'],
    [0x89, 'CONNACK 0x89'],
    [0x9f, 'CONNACK 0x9F'],
  ])('CONNACK %i (server unavailable, busy, rate) is retried', (rc, shown) => {
    expect(refused('connect', rc)).toEqual({ result: 'retry', status: null, error: `broker unavailable (${shown})` });
  });

  it.each([
    [0x87, 'grant the user publish rights on the topic'],
    [0x90, 'topic name invalid'],
    [0x9a, '(0x9A)'],
  ])('PUBACK %i flags the target: %s', (rc, reason) => {
    expect(refused('publish', rc)).toEqual({
      result: 'permanent',
      status: null,
      error: expect.stringContaining(reason),
      flagTarget: true,
    });
  });

  it('0x95 packet too large fails the delivery; the target is not flagged, the next payload may fit', () => {
    expect(refused('publish', 0x95)).toEqual({
      result: 'permanent',
      status: null,
      error: 'the message is larger than the broker accepts (0x95, packet too large)',
      flagTarget: false,
    });
  });

  it.each([[0x97], [0x80], [0x89]])('PUBACK %i (quota exceeded, unspecified, busy) is retried', (rc) => {
    expect(refused('publish', rc)).toMatchObject({ result: 'retry', error: expect.stringContaining('did not take') });
  });

  it.each([['ECONNREFUSED'], ['ECONNRESET'], ['ETIMEDOUT'], ['ECONNCLOSED']])('%s is retried', (code) => {
    expect(failed(code)).toEqual({ result: 'retry', status: null, error: `broker unavailable (${code})` });
  });

  it('an SSRF-refused address flags the target', () => {
    expect(failed('SSRF_BLOCKED')).toMatchObject({ result: 'permanent', flagTarget: true });
  });
});

describe('the message of one delivery', () => {
  const d = jsonDelivery('mqtt', '{"type":"paid"}');
  const config = { url: 'sealed', topic: 'orders/{{type}}', protocol_version: 5 as const };
  const withType = (type: unknown) => jsonDelivery('mqtt', JSON.stringify({ type }));

  it('the ids are user properties; the topic is rendered from the payload', () => {
    expect(mqttMessage(config, d)).toEqual({
      topic: 'orders/paid',
      body: Buffer.from('{"type":"paid"}'),
      userProperties: { 'relay-delivery-id': 'dlv_1', 'relay-event-id': 'evt_1', 'relay-endpoint-id': 'ep_1' },
      contentType: 'application/json',
    });
  });

  it.each([['a/#'], ['+'], ['x'.repeat(65_535)]])(
    'a topic rendered from %j that is no topic name is a payload error (the target is not flagged)',
    (type) => {
      expect(() => mqttMessage(config, withType(type))).toThrow(PayloadError);
    },
  );

  it('a topic rendered empty or starting with $ is a payload error', () => {
    expect(() => mqttMessage({ ...config, topic: '{{type}}' }, withType(''))).toThrow('the rendered topic is empty');
    expect(() => mqttMessage({ ...config, topic: '{{type}}' }, withType('$SYS'))).toThrow('starts with $');
  });
});
