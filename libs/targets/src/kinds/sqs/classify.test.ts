import { createHash } from 'node:crypto';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { PayloadError } from '../../kind';
import { jsonDelivery } from '../delivery.fixture';
import { THROTTLED_RETRY_MS } from '../aws-outcome';
import { classifySqsSend } from './classify';
import { MAX_SQS_MESSAGE_BYTES, sqsMessage } from './kind';

const answered = (code: string, status: number, message = code) =>
  classifySqsSend({ error: { code, message, status, fault: status >= 500 ? 'server' : 'client' } });

describe('SQS SendMessage outcomes (the shared reading: aws-outcome.test.ts)', () => {
  it('a message id is a success, with no status code', () => {
    expect(classifySqsSend({ messageId: 'm-1' })).toEqual({ result: 'success', status: null });
  });

  it.each([
    ['InvalidClientTokenId', 403, 'SQS does not know the access key'],
    ['UnrecognizedClientException', 400, 'SQS does not know the access key'],
    ['SignatureDoesNotMatch', 403, 'the request signature does not match'],
    ['AccessDenied', 403, 'allow them sqs:SendMessage'],
    ['QueueDoesNotExist', 400, 'the queue does not exist'],
    ['AWS.SimpleQueueService.NonExistentQueue', 400, 'the queue does not exist'],
    ['KmsAccessDenied', 400, 'KMS key'],
  ])('%s flags the target: %s', (code, status, reason) => {
    expect(answered(code, status)).toMatchObject({
      result: 'permanent',
      error: expect.stringContaining(reason),
      flagTarget: true,
    });
  });

  it.each([
    ['InvalidParameterValue', 'One or more parameters are invalid. Reason: Message must be shorter than 262144 bytes.'],
    ['InvalidAttributeValue', 'MessageTooLong'],
    ['InvalidMessageContents', 'Invalid characters found'],
  ])('a message refused for its size or contents (%s) fails that delivery only', (code, message) => {
    expect(answered(code, 400, message)).toMatchObject({ result: 'permanent', flagTarget: false });
  });

  it.each([['RequestThrottled'], ['ThrottlingException'], ['KmsThrottled']])('%s is throttling', (code) => {
    expect(answered(code, 400)).toMatchObject({ result: 'retry', retryAfterMs: THROTTLED_RETRY_MS });
  });

  it('a clock-skew refusal is retried (the client corrects its clock from the answer)', () => {
    expect(answered('RequestExpired', 400)).toMatchObject({ result: 'retry' });
  });
});

describe('the message of one delivery', () => {
  const d = jsonDelivery('sqs', '{"customer":{"id":"c-7"}}');
  const keys = { region: 'r', access_key_id: 'sealed', secret_access_key: 'sealed' };
  const standard = { ...keys, queue_url: 'http://127.0.0.1:9324/0/orders', message_group_id: '' };
  const fifo = { ...keys, queue_url: 'http://127.0.0.1:9324/0/orders.fifo', message_group_id: '{{customer.id}}' };
  const withBody = (body: Buffer, content_type?: string): DeliveryMessageV1 => ({
    ...d,
    payload: { content_type: content_type ?? null, body_base64: body.toString('base64') },
  });

  it('a standard queue: the body as sent, the ids and content type as attributes, no group', () => {
    expect(sqsMessage(standard, d)).toEqual({
      body: '{"customer":{"id":"c-7"}}',
      attributes: {
        'relay-event-id': 'evt_1',
        'relay-delivery-id': 'dlv_1',
        'relay-endpoint-id': 'ep_1',
        'content-type': 'application/json',
      },
    });
  });

  it('a FIFO queue: deduplicated by the delivery id, grouped by the rendered template', () => {
    expect(sqsMessage(fifo, d)).toMatchObject({ groupId: 'c-7', deduplicationId: 'dlv_1' });
  });

  it('a group the payload lacks falls back to the endpoint id; one SQS refuses becomes its SHA-256', () => {
    expect(sqsMessage(fifo, withBody(Buffer.from('{"other":1}'), 'application/json')).groupId).toBe('ep_1');
    const spaced = withBody(Buffer.from('{"customer":{"id":"a b"}}'), 'application/json');
    expect(sqsMessage(fifo, spaced).groupId).toBe(createHash('sha256').update('a b').digest('hex'));
  });

  it('a body SQS cannot carry as text goes as base64, said by an attribute; an empty one as a marker', () => {
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    expect(sqsMessage(standard, withBody(binary, 'image/png'))).toMatchObject({
      body: binary.toString('base64'),
      attributes: { 'relay-body-encoding': 'base64', 'content-type': 'image/png' },
    });
    const empty = sqsMessage(standard, withBody(Buffer.alloc(0)));
    expect(empty.body).toBe('(empty)');
    expect(empty.attributes).toMatchObject({ 'relay-body-encoding': 'empty' });
    expect(empty.attributes).not.toHaveProperty('content-type');
  });

  it('a message past 256 KiB with its attributes is a payload error (the target is not flagged)', () => {
    const big = withBody(Buffer.from('x'.repeat(MAX_SQS_MESSAGE_BYTES - 20)), 'text/plain');
    expect(() => sqsMessage(standard, big)).toThrow(PayloadError);
    expect(() => sqsMessage(standard, withBody(Buffer.from('x'.repeat(1000)), 'text/plain'))).not.toThrow();
  });
});
