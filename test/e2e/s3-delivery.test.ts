import { createHash, randomUUID } from 'node:crypto';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { must } from '@relay/client';
import { createS3Link } from '@relay/targets';
import { activityRowWhen } from '../support/api-client';
import { eventually } from '../support/infra';
import {
  addQueueTarget,
  flagOf,
  removeTarget,
  RIDES_OUT_AN_OUTAGE,
  retryingWith,
  sendJson,
  startOutputsStack,
} from '../support/queue-targets';
import { createBucket, keysIn, startVersitygw } from '../support/s3-server';
import type { S3Server } from '../support/s3-server';
import type { Stack } from './stack';
import { startTogether } from '../support/start-together';

/** the target whose pooled client the link calls use */
const OWNER = { endpointId: 'ep_owner', targetId: 'tg_owner' };

/*
 * S3-compatible object storage targets (docs/targets-queues.md "S3-compatible object storage"),
 * every service its own process on the worker's shared stack plus one outputs deliverer of this
 * file's. The buckets are on a private versitygw started once for the file, which verifies every
 * request's SigV4 signature; each test makes a bucket of its own.
 */

let stack: Stack;
let endpointId: string;
let stopStack: () => Promise<void>;
let s3: S3Server;

beforeAll(async () => {
  let on: Awaited<ReturnType<typeof startOutputsStack>>;
  [on, s3] = await startTogether([startOutputsStack('s3'), (o) => o.stop()], [startVersitygw('s3'), (s) => s.close()]);
  ({ stack, endpointId, stop: stopStack } = on);
});

afterAll(async () => {
  await stopStack?.();
  await s3?.close();
});

const configFor = (bucket: string, extra: Record<string, unknown> = {}) => ({
  endpoint: s3.url,
  region: 'us-east-1',
  bucket,
  access_key_id: s3.accessKeyId,
  secret_access_key: s3.secretAccessKey,
  path_style: true,
  ...extra,
});

async function newBucket(): Promise<string> {
  const bucket = `e2e-${randomUUID()}`;
  await createBucket(s3, bucket);
  return bucket;
}

const keysEventually = (bucket: string, n: number) =>
  eventually(
    async () => {
      const keys = await keysIn(s3, bucket);
      return keys.length >= n ? keys : undefined;
    },
    30_000,
    `${n} objects in ${bucket}`,
  );

describe('S3 target, end to end', () => {
  it('an event becomes one object: its key from the template with the delivery id, the body as sent, its content type, the ids as metadata', async () => {
    const bucket = await newBucket();
    const targetId = await addQueueTarget(
      stack,
      endpointId,
      's3',
      configFor(bucket, { key_template: 'in/{{endpoint_id}}/{{date}}/{{delivery_id}}.json' }),
    );
    try {
      await sendJson(stack, endpointId, { type: 'paid', order: { id: 42 } });
      const [key] = await keysEventually(bucket, 1);
      expect(key).toMatch(new RegExp(`^in/${endpointId}/\\d{4}-\\d{2}-\\d{2}/dlv_[^/]+\\.json$`));
      const object = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      expect(await object.Body!.transformToString()).toBe('{"type":"paid","order":{"id":42}}');
      expect(object.ContentType).toBe('application/json');
      const deliveryId = key!
        .split('/')
        .pop()!
        .replace(/\.json$/, '');
      expect(object.Metadata).toEqual({
        'relay-event-id': expect.stringMatching(/^evt_/),
        'relay-delivery-id': deliveryId,
        'relay-endpoint-id': endpointId,
      });
      const row = await activityRowWhen(
        stack.client,
        object.Metadata!['relay-event-id']!,
        (r) => r.status === 'completed',
        'delivered',
      );
      expect(row.deliveries).toEqual([expect.objectContaining({ delivery_id: deliveryId, target_id: targetId })]);
      expect(row.deliveries[0]!.attempts.map((a) => [a.state, a.status_code])).toEqual([['delivered', null]]);
    } finally {
      await removeTarget(stack, endpointId, targetId);
    }
  });

  it('the same delivery written twice leaves one object: a retry overwrites', async () => {
    const bucket = await newBucket();
    const link = createS3Link({
      allowCidrs: ['127.0.0.1/32'],
      connectTimeoutMs: 5000,
      commandTimeoutMs: 5000,
      maxClients: 1,
      idleMs: 60_000,
    });
    try {
      const at = {
        endpoint: s3.url,
        region: 'us-east-1',
        bucket,
        pathStyle: true,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
      };
      const object = {
        key: 'relay/ep/2026-11-29/dlv_same',
        body: Buffer.from('once'),
        contentType: 'text/plain',
        metadata: {},
        contentMd5: createHash('md5').update('once').digest('base64'),
      };
      expect(await link.put(OWNER, at, object)).toEqual({ etag: expect.any(String) });
      expect(await link.put(OWNER, at, object)).toEqual({ etag: expect.any(String) });
      expect(await keysIn(s3, bucket)).toEqual(['relay/ep/2026-11-29/dlv_same']);
      // a body changed in transit (its MD5 no longer matches) is refused, not stored
      expect(await link.put(OWNER, at, { ...object, body: Buffer.from('twice') })).toMatchObject({
        error: { code: 'BadDigest', status: 400 },
      });
    } finally {
      link.close();
    }
  });

  it('a wrong secret (SignatureDoesNotMatch) and a missing bucket (NoSuchBucket) flag their targets; no secret in any response', async () => {
    const bucket = await newBucket();
    const endpoint = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'signed' } }))).id;
    const ok = await addQueueTarget(stack, endpoint, 's3', configFor(bucket));
    const wrongSecret = await addQueueTarget(
      stack,
      endpoint,
      's3',
      configFor(bucket, { secret_access_key: 'wrong-Secret-1' }),
    );
    const noBucket = await addQueueTarget(stack, endpoint, 's3', configFor(`e2e-missing-${randomUUID()}`));
    try {
      await sendJson(stack, endpoint, { signed: true });
      await keysEventually(bucket, 1);
      expect((await flagOf(stack, endpoint, wrongSecret)).reason).toContain(
        'the request signature does not match (SignatureDoesNotMatch)',
      );
      expect((await flagOf(stack, endpoint, noBucket)).reason).toContain('the bucket does not exist (NoSuchBucket)');
      const list = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId: endpoint } } }),
      );
      expect(list.data.find((t) => t.id === ok)?.flagged ?? null).toBeNull();
      expect(await keysIn(s3, bucket)).toHaveLength(1);
      const shown = JSON.stringify(list);
      for (const secret of [s3.secretAccessKey, 'wrong-Secret-1']) expect(shown).not.toContain(secret);
    } finally {
      for (const id of [ok, wrongSecret, noBucket]) await removeTarget(stack, endpoint, id);
    }
  });
});

describe('the destination S3 server stopped mid-run and restarted', () => {
  it('objects written before stay; deliveries sent while it is down are retried and written once it is back, one object each', async () => {
    const bucket = await newBucket();
    const outage = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'outage' } }))).id;
    const targetId = await addQueueTarget(stack, outage, 's3', configFor(bucket), RIDES_OUT_AN_OUTAGE);
    try {
      for (let i = 0; i < 3; i++) await sendJson(stack, outage, { before: i });
      const before = await keysEventually(bucket, 3);

      await s3.stop('SIGTERM');
      for (let i = 0; i < 3; i++) await sendJson(stack, outage, { during: i });
      await retryingWith(stack, outage, 'S3 unavailable (ECONNREFUSED)', 3);

      await s3.start(30_000);
      const after = await keysEventually(bucket, 6);
      expect(after).toEqual(expect.arrayContaining(before));
      await eventually(
        async () => {
          const { data } = await stack.client.GET('/v1/activity', {
            params: { query: { endpoint_id: outage, status: 'completed' } },
          });
          return (data?.data ?? []).length === 6 ? true : undefined;
        },
        30_000,
        'six completed rows',
      );
      // every attempt is over: one object per delivery, none added by a retry
      expect(await keysIn(s3, bucket)).toHaveLength(6);
    } finally {
      await removeTarget(stack, outage, targetId);
    }
    // the sum of its waits: the retries seen, the server's start and the deliveries after it
  }, 240_000);
});
