import { createHash } from 'node:crypto';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, SecretSealer, TransportKind } from '../../kind';
import { ownerOf } from '../../transports/pool';
import type { S3Link, S3Object } from '../../transports/s3';
import { openAwsKeys } from '../aws-access';
import { QUEUE_RETRY_SCHEDULE_MS } from '../queue-schedule';
import { renderTemplate } from '../template';
import { classifyS3Put } from './classify';
import { s3Description } from './config';
import type { S3Config } from './config';

/**
 * On the outputs channel with the queue kinds, and their schedule. `resendable` is false like
 * theirs, although a repeated PutObject of one delivery only overwrites its object: the deliverer
 * never resends inside an attempt for these kinds.
 */
export const s3Info: KindInfo = {
  kind: 's3',
  channel: 'outputs',
  defaultRetryScheduleMs: QUEUE_RETRY_SCHEDULE_MS,
  description: s3Description,
  resendable: false,
};

export interface S3KindDeps {
  secrets: SecretSealer;
  /** only the outputs deliverer has one; elsewhere the kind only validates and shows configs */
  s3?: S3Link;
}

/** The object of one delivery: the same key and bytes on every attempt, so a retry overwrites it. */
export function s3Object(config: S3Config, d: DeliveryMessageV1): S3Object {
  const body = Buffer.from(d.payload.body_base64, 'base64');
  const key = renderTemplate(config.key_template, {
    delivery_id: d.delivery_id,
    event_id: d.event_id,
    endpoint_id: d.endpoint_id,
    date: d.received_at.slice(0, 10),
  });
  return {
    key,
    body,
    contentType: d.payload.content_type ?? 'application/octet-stream',
    metadata: { 'relay-event-id': d.event_id, 'relay-delivery-id': d.delivery_id, 'relay-endpoint-id': d.endpoint_id },
    contentMd5: createHash('md5').update(body).digest('base64'),
  };
}

/** Each delivery written to the target's bucket (docs/targets-queues.md "S3-compatible object storage"). */
export function createS3Kind(deps: S3KindDeps): TransportKind<S3Config> {
  return {
    ...s3Info,
    ...describedConfig<S3Config>(s3Description, deps.secrets),
    deliver: async (config, d) => {
      if (!deps.s3) return { result: 'retry', status: null, error: 'this deliverer cannot reach S3 buckets' };
      const object = s3Object(config, d);
      const bucket = {
        endpoint: config.endpoint,
        bucket: config.bucket,
        pathStyle: config.path_style,
        ...openAwsKeys(deps.secrets, config, 'S3'),
      };
      return classifyS3Put(await deps.s3.put(ownerOf(d), bucket, object));
    },
  };
}
