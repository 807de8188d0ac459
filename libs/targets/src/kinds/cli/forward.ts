import { CLI_FORWARD_V1, isNeverForwarded } from '@relay/contracts';
import type { CliForwardV1, DeliveryMessageV1 } from '@relay/contracts';
import { PayloadError } from '../../kind';
import { MAX_FORWARD_BODY_BYTES } from './caps';

/** A header value Node's client would refuse (a line break, a control character). */
const UNSENDABLE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * The request the CLI sends to its local URL for one attempt: the sender's forwardable headers
 * (the gateway already removed credentials; Relay's rule is checked again here, as the webhook
 * kind does), the payload's Content-Type and Relay's tracking headers — what a webhook target
 * with header forwarding `all` receives, so a receiver developed against it sees the real thing.
 */
export function cliForward(d: DeliveryMessageV1): CliForwardV1 {
  const size = Buffer.byteLength(d.payload.body_base64, 'base64');
  if (size > MAX_FORWARD_BODY_BYTES)
    throw new PayloadError(
      'CLI_PAYLOAD_TOO_LARGE',
      `the payload (${size} bytes) is larger than a CLI session takes (${MAX_FORWARD_BODY_BYTES} bytes)`,
    );
  const headers: Record<string, string> = {};
  for (const [raw, value] of Object.entries(d.request.headers)) {
    const name = raw.toLowerCase();
    if (isNeverForwarded(name) || UNSENDABLE.test(value)) continue;
    headers[name] = value;
  }
  if (d.payload.content_type !== null) headers['content-type'] = d.payload.content_type;
  headers['x-relay-event-id'] = d.event_id;
  headers['x-relay-delivery-id'] = d.delivery_id;
  headers['x-relay-attempt'] = String(d.attempt);
  return {
    type: CLI_FORWARD_V1,
    event_id: d.event_id,
    delivery_id: d.delivery_id,
    attempt: d.attempt,
    target_id: d.target_id,
    endpoint_id: d.endpoint_id,
    headers,
    body_base64: d.payload.content_type === null ? '' : d.payload.body_base64,
  };
}
