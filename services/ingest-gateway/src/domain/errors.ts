import type { Outcome } from '@relay/contracts';

/**
 * A rejection the sender sees. `outcome` is the activity-log code; `null` means the spec
 * keeps no activity row for it (unknown/disabled/paused endpoints). `code` is the body's
 * `code` field, lower-case per the spec's 503 examples.
 */
export class IngestRejection extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly outcome: Outcome | null,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'IngestRejection';
  }
}

export const rejections = {
  endpointNotFound: () => new IngestRejection(404, 'endpoint_not_found', 'No enabled endpoint exists at this URL.', null),
  endpointUnavailable: () => new IngestRejection(503, 'endpoint_unavailable', 'The endpoint cannot accept events right now. Retry after the delay in Retry-After.', null, 60),
  methodNotAllowed: (allowed: readonly string[]) =>
    new IngestRejection(405, 'method_not_allowed', `This endpoint accepts ${allowed.join(', ')}.`, 'METHOD_NOT_ALLOWED'),
  payloadTooLarge: (limit: number) => new IngestRejection(413, 'payload_too_large', `The payload is larger than the plan limit of ${limit} bytes.`, 'PAYLOAD_TOO_LARGE'),
  deliveryQueueUnavailable: () =>
    new IngestRejection(503, 'delivery_queue_unavailable', 'The event was not accepted because delivery processing is unavailable. Retry after the delay in Retry-After.', 'DELIVERY_QUEUE_UNAVAILABLE', 5),
};
