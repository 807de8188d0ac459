import { randomUUID } from 'node:crypto';
import {
  brokerNames,
  encodePayloadBatch,
  MAX_PAYLOAD_BATCH,
  MAX_PAYLOAD_BATCH_BYTES,
  PAYLOAD_BATCH_V1,
} from '@relay/contracts';
import type { StoredPayloadV1 } from '@relay/contracts';
import { ACTIVITY_LINGER_MS } from './activity-publisher';
import { PublishBatcher } from './batcher';
import type { ConfirmPublisher } from './publisher';

export interface PayloadPublisher {
  /** Settles when the batch carrying `payload` is confirmed (or failed). */
  publish(payload: StoredPayloadV1): Promise<void>;
  readonly pending: number;
  flush(): void;
}

/** What a payload adds to a batch message: its body and its forwarded headers, roughly. */
function sizeOf(p: StoredPayloadV1): number {
  let size = p.payload.body_base64.length + p.request.query.length + 256;
  for (const [name, value] of Object.entries(p.request.headers)) size += name.length + value.length + 6;
  return size;
}

/**
 * Accepted events' payloads to the payload queue (`relay.payload.batch.v1`), with confirms:
 * up to 100 a message and about 1 MiB, so the activity-writer's prefetch bounds its memory in
 * bytes too. The gateway does not wait on it for its 202.
 */
export function createPayloadPublisher(publisher: ConfirmPublisher, namespace: string): PayloadPublisher {
  const names = brokerNames(namespace);
  const batcher = new PublishBatcher<StoredPayloadV1>(
    (payloads) =>
      publisher.publish(names.activityExchange, names.payloadRoutingKey, encodePayloadBatch(payloads), {
        messageId: `payload.${randomUUID()}`,
        type: PAYLOAD_BATCH_V1,
      }),
    { maxItems: MAX_PAYLOAD_BATCH, lingerMs: ACTIVITY_LINGER_MS, maxBytes: MAX_PAYLOAD_BATCH_BYTES, sizeOf },
  );
  return {
    publish: (payload) => batcher.add(payload),
    get pending() {
      return batcher.pending;
    },
    flush: () => batcher.flush(),
  };
}
