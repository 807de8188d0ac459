import { createHash } from 'node:crypto';
import type * as SmithyHttp from '@smithy/node-http-handler';
import { createSsrfAgents } from '../../ssrf';
import { onFirstUse } from '../on-first-use';
import type { PooledLinkOptions } from '../pool';

const smithyHttp = onFirstUse(() => require('@smithy/node-http-handler') as typeof SmithyHttp);

/** Where an AWS-style service is and who signs for it: plaintext keys, held only in memory. */
export interface AwsAccess {
  /** the origin requests go to (`https://sqs.eu-west-1.amazonaws.com`, an SQS- or S3-compatible server) */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * What an AWS SDK call came to when it failed: the service's code (`NoSuchBucket`,
 * `AWS.SimpleQueueService.NonExistentQueue`), its HTTP status and fault; or, with no answer, the
 * socket's code (`ECONNREFUSED`, `SSRF_BLOCKED`) and no status.
 */
export interface AwsFailure {
  code: string;
  message: string;
  status?: number;
  fault?: 'client' | 'server';
}

/**
 * The settings every pooled AWS SDK client of a target is built with: its endpoint, region and
 * keys; one try per attempt (Relay's schedule retries, never the SDK inside an attempt); and a
 * pair of SSRF-guarded agents of its own, so that destroying an idle client closes its own
 * sockets only.
 */
export function awsClientConfig(access: AwsAccess, opts: PooledLinkOptions) {
  const agents = createSsrfAgents({ allowCidrs: opts.allowCidrs });
  return {
    region: access.region,
    endpoint: access.endpoint,
    credentials: { accessKeyId: access.accessKeyId, secretAccessKey: access.secretAccessKey },
    maxAttempts: 1,
    requestHandler: new (smithyHttp().NodeHttpHandler)({
      httpAgent: agents.http,
      httpsAgent: agents.https,
      connectionTimeout: opts.connectTimeoutMs,
      requestTimeout: opts.commandTimeoutMs,
      throwOnRequestTimeout: true,
    }),
  };
}

/**
 * The SDK's error as a failure: a service error by its code — the query-compatible `Code`
 * (`AWS.SimpleQueueService.NonExistentQueue`) when it has one, else its name — a socket error by
 * its code, a client-side timeout as `ETIMEDOUT`.
 */
export function awsFailure(err: unknown): AwsFailure {
  const e = err as {
    name?: string;
    Code?: unknown;
    code?: unknown;
    message?: string;
    $fault?: 'client' | 'server';
    $metadata?: { httpStatusCode?: number };
  };
  const message = String(e?.message ?? err);
  const status = e?.$metadata?.httpStatusCode;
  if (status !== undefined) {
    const code = typeof e.Code === 'string' && e.Code !== '' ? e.Code : (e.name ?? `HTTP${status}`);
    return { code, message, status, ...(e.$fault ? { fault: e.$fault } : {}) };
  }
  if (typeof e?.code === 'string') return { code: e.code, message };
  if (e?.name === 'TimeoutError' || /timed? ?out/i.test(message)) return { code: 'ETIMEDOUT', message };
  return { code: 'EAWS', message };
}

/** A client's key in its pool: a digest of what it was built from, so the pool holds no secret in clear. */
export function poolKey(access: AwsAccess, ...more: unknown[]): string {
  return createHash('sha256')
    .update(JSON.stringify([access.endpoint, access.region, access.accessKeyId, access.secretAccessKey, ...more]))
    .digest('base64url');
}
