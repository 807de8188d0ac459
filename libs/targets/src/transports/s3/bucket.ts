import type * as ClientS3 from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { awsClientConfig, pooledAwsClients } from '../aws';
import type { AwsAccess, AwsFailure } from '../aws';
import { onFirstUse } from '../on-first-use';
import type { PooledLink, PooledLinkOptions, PoolOwner } from '../pool';

const clientS3 = onFirstUse(() => require('@aws-sdk/client-s3') as typeof ClientS3);

/** Where a bucket is: its server, signing keys and addressing. */
export interface S3Bucket extends AwsAccess {
  bucket: string;
  pathStyle: boolean;
}

/** One object to write. */
export interface S3Object {
  key: string;
  body: Buffer;
  contentType: string;
  /** `x-amz-meta-*` headers */
  metadata: Readonly<Record<string, string>>;
  /** base64 MD5 of the body: the server refuses a body that changed in transit (BadDigest) */
  contentMd5: string;
}

/** What a PutObject came to: the object's ETag, or why not. */
export type S3PutOutcome = { etag: string } | { error: AwsFailure };

/** The outputs deliverer's route to the buckets of S3 targets. */
export interface S3Link extends PooledLink {
  put(owner: PoolOwner, bucket: S3Bucket, object: S3Object): Promise<S3PutOutcome>;
}

function openClient(bucket: S3Bucket, opts: PooledLinkOptions): S3Client {
  return new (clientS3().S3Client)({
    ...awsClientConfig(bucket, opts),
    forcePathStyle: bucket.pathStyle,
    // Content-MD5 is the integrity check every S3-compatible server knows; the SDK's default
    // CRC checksums (sent as trailers) are not understood by all of them
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Pooled S3 clients (transports/aws), one per endpoint, region, keys and addressing. */
export function createS3Link(opts: PooledLinkOptions): S3Link {
  const clients = pooledAwsClients(
    opts,
    (bucket: S3Bucket) => openClient(bucket, opts),
    (bucket) => [bucket.pathStyle],
  );
  return {
    put: (owner, bucket, object) =>
      clients.call(owner, bucket, async (client) => {
        const put = await client.send(
          new (clientS3().PutObjectCommand)({
            Bucket: bucket.bucket,
            Key: object.key,
            Body: object.body,
            ContentType: object.contentType,
            ContentMD5: object.contentMd5,
            Metadata: { ...object.metadata },
          }),
        );
        return { etag: put.ETag ?? '' };
      }),
    get size() {
      return clients.size;
    },
    release: (id) => clients.release(id),
    close: () => clients.close(),
  };
}
