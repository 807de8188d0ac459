import { createHash } from 'node:crypto';
import { THROTTLED_RETRY_MS } from '../aws-outcome';
import { jsonDelivery } from '../delivery.fixture';
import { classifyS3Put } from './classify';
import { s3Object } from './kind';

const answered = (code: string, status: number) =>
  classifyS3Put({ error: { code, message: code, status, fault: status >= 500 ? 'server' : 'client' } });

describe('S3 PutObject outcomes (the shared reading: aws-outcome.test.ts)', () => {
  it('an ETag is a success, with no status code', () => {
    expect(classifyS3Put({ etag: '"abc"' })).toEqual({ result: 'success', status: null });
  });

  it.each([
    ['AccessDenied', 403, 'allow them s3:PutObject'],
    ['InvalidAccessKeyId', 403, 'S3 does not know the access key'],
    ['SignatureDoesNotMatch', 403, 'the request signature does not match'],
    ['NoSuchBucket', 404, 'the bucket does not exist'],
    ['AuthorizationHeaderMalformed', 400, 'check region'],
    ['PermanentRedirect', 301, 'served by another endpoint'],
  ])('%s flags the target: %s', (code, status, reason) => {
    expect(answered(code, status)).toMatchObject({
      result: 'permanent',
      error: expect.stringContaining(reason),
      flagTarget: true,
    });
  });

  it.each([['SlowDown'], ['ServiceUnavailable']])('%s (503) is throttling', (code) => {
    expect(answered(code, 503)).toMatchObject({ result: 'retry', retryAfterMs: THROTTLED_RETRY_MS });
  });

  it.each([['BadDigest'], ['RequestTimeout'], ['RequestTimeTooSkewed']])(
    '%s (a body damaged or read too slowly, a clock) is retried',
    (code) => {
      expect(answered(code, 400)).toMatchObject({ result: 'retry', status: 400 });
    },
  );

  it('an object too large fails that delivery only', () => {
    expect(answered('EntityTooLarge', 400)).toMatchObject({ result: 'permanent', flagTarget: false });
  });
});

describe('the object of one delivery', () => {
  const d = jsonDelivery('s3', '{"order":7}');
  const config = {
    endpoint: 'http://127.0.0.1:7070',
    region: 'us-east-1',
    bucket: 'archive',
    access_key_id: 'sealed',
    secret_access_key: 'sealed',
    path_style: true,
    key_template: 'in/{{endpoint_id}}/{{date}}/{{delivery_id}}.json',
  };

  it('its key names the delivery (so a retry overwrites it); the body as sent with its type, MD5 and the ids as metadata', () => {
    expect(s3Object(config, d)).toEqual({
      key: 'in/ep_1/2026-11-28/dlv_1.json',
      body: Buffer.from('{"order":7}'),
      contentType: 'application/json',
      contentMd5: createHash('md5').update('{"order":7}').digest('base64'),
      metadata: { 'relay-event-id': 'evt_1', 'relay-delivery-id': 'dlv_1', 'relay-endpoint-id': 'ep_1' },
    });
    expect(s3Object(config, { ...d, attempt: 5 })).toEqual(s3Object(config, d));
  });

  it('a request without a content type is stored as application/octet-stream', () => {
    const bare = { ...d, payload: { content_type: null, body_base64: '' } };
    expect(s3Object(config, bare).contentType).toBe('application/octet-stream');
  });
});
