import { kafkaErrorCode } from '../../transports/kafka';
import { flaggedWith, jsonDelivery } from '../delivery.fixture';
import { classifyKafkaProduce } from './classify';
import { kafkaCluster, kafkaRecord } from './kind';
import type { KafkaConfig } from './config';

const failed = (code: string) => classifyKafkaProduce({ error: { code, message: code } });

describe('Kafka produce outcomes', () => {
  it('a written record (acks=all) is a success, with no status code', () => {
    expect(classifyKafkaProduce({ partition: 0, offset: '7' })).toEqual({ result: 'success', status: null });
  });

  it.each([
    ['TOPIC_AUTHORIZATION_FAILED', 'grant it WRITE on the topic'],
    ['SASL_AUTHENTICATION_FAILED', 'check the mechanism, user name and password'],
    ['UNKNOWN_TOPIC_OR_PARTITION', 'the topic does not exist'],
    ['INVALID_TOPIC_EXCEPTION', 'refused the topic name'],
    ['CLUSTER_AUTHORIZATION_FAILED', 'IDEMPOTENT_WRITE'],
    ['UNSUPPORTED_SASL_MECHANISM', 'sasl.enabled.mechanisms'],
    ['SSRF_BLOCKED', 'broker not dialled'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'broker not dialled'],
  ])('%s flags the target: %s', (code, reason) => {
    expect(failed(code)).toEqual(flaggedWith(reason));
  });

  it.each([['MESSAGE_TOO_LARGE'], ['RECORD_LIST_TOO_LARGE']])(
    '%s fails that delivery only: the target is not flagged',
    (code) => {
      expect(failed(code)).toEqual({
        result: 'permanent',
        status: null,
        error: expect.stringContaining(`(${code})`),
        flagTarget: false,
      });
    },
  );

  it.each([
    ['NOT_LEADER_OR_FOLLOWER'],
    ['LEADER_NOT_AVAILABLE'],
    ['REQUEST_TIMED_OUT'],
    ['NOT_ENOUGH_REPLICAS'],
    ['ECONNREFUSED'],
    ['ECONNCLOSED'],
  ])('%s is retried', (code) => {
    expect(failed(code)).toEqual({ result: 'retry', status: null, error: `Kafka unavailable (${code})` });
  });
});

describe("the client's errors, named", () => {
  it('the broker error inside the retry wrapper, the SASL refusal, the socket code', () => {
    const protocol = Object.assign(new Error('not authorized'), {
      name: 'KafkaJSProtocolError',
      type: 'TOPIC_AUTHORIZATION_FAILED',
      code: 29,
    });
    const retries = Object.assign(new Error('retries'), { name: 'KafkaJSNumberOfRetriesExceeded', cause: protocol });
    expect(kafkaErrorCode(retries)).toBe('TOPIC_AUTHORIZATION_FAILED');
    expect(kafkaErrorCode(Object.assign(new Error('x'), { name: 'KafkaJSSASLAuthenticationError' }))).toBe(
      'SASL_AUTHENTICATION_FAILED',
    );
    const socket = Object.assign(new Error('Connection error'), {
      name: 'KafkaJSConnectionError',
      code: 'ECONNREFUSED',
    });
    expect(kafkaErrorCode(Object.assign(new Error('r'), { cause: socket }))).toBe('ECONNREFUSED');
    expect(kafkaErrorCode(Object.assign(new Error('agg'), { errors: [protocol] }))).toBe('TOPIC_AUTHORIZATION_FAILED');
    expect(kafkaErrorCode(Object.assign(new Error('t'), { name: 'KafkaJSRequestTimeoutError' }))).toBe(
      'REQUEST_TIMED_OUT',
    );
    expect(kafkaErrorCode(new Error('?'))).toBe('EKAFKA');
  });
});

describe('the record of one delivery', () => {
  const d = jsonDelivery('kafka', '{"customer":{"id":"cus_9","n":3}}');
  const config: KafkaConfig = {
    brokers: ['k:9092'],
    topic: 'webhooks',
    key_path: 'customer.id',
    sasl: { mechanism: 'none' },
    tls: false,
  };

  it('the body as value, the key from the payload, the ids and content type as headers, received_at as timestamp', () => {
    expect(kafkaRecord(config, d)).toEqual({
      topic: 'webhooks',
      key: 'cus_9',
      value: Buffer.from('{"customer":{"id":"cus_9","n":3}}'),
      headers: {
        'relay-delivery-id': 'dlv_1',
        'relay-event-id': 'evt_1',
        'relay-endpoint-id': 'ep_1',
        'content-type': 'application/json',
      },
      timestamp: String(Date.parse('2026-11-28T10:00:00.000Z')),
    });
  });

  it('no key without key_path, or when the payload lacks the field; a number or object key as text', () => {
    expect(kafkaRecord({ ...config, key_path: '' }, d)).not.toHaveProperty('key');
    expect(kafkaRecord({ ...config, key_path: 'customer.missing' }, d)).not.toHaveProperty('key');
    expect(kafkaRecord({ ...config, key_path: 'customer.n' }, d).key).toBe('3');
    expect(kafkaRecord({ ...config, key_path: 'customer' }, d).key).toBe('{"id":"cus_9","n":3}');
  });

  it('the SASL password is opened per attempt; one no key opens flags the target', () => {
    const secrets = { encrypt: (s: string) => `sealed:${s}`, decrypt: (s: string) => s.replace(/^sealed:/, '') };
    const sasl = { mechanism: 'plain' as const, username: 'u', password: 'sealed:pw' };
    expect(kafkaCluster(secrets, { ...config, sasl })).toEqual({
      brokers: ['k:9092'],
      tls: false,
      sasl: { mechanism: 'plain', username: 'u', password: 'pw' },
    });
    const broken = {
      ...secrets,
      decrypt: () => {
        throw new Error('no key');
      },
    };
    expect(() => kafkaCluster(broken, { ...config, sasl })).toThrow(
      expect.objectContaining({ name: 'TargetConfigError', code: 'SECRET_UNREADABLE' }),
    );
  });
});
