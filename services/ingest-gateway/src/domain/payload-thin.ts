import type { DeliveryPayload } from '@relay/contracts';
import type { PayloadFormat } from '@relay/endpoints';
import { IngestRejection } from './errors';

/**
 * JSON and None formats (the walking skeleton). The full set of payload formats arrives
 * with the ingest contract; until then an endpoint of another format is refused with 415.
 */
export function readPayload(format: PayloadFormat, contentType: string | undefined, rawBody: Buffer): DeliveryPayload {
  if (format === 'none') return { content_type: null, body_base64: '' };
  if (format !== 'json') throw new IngestRejection(415, 'unsupported_media_type', `payload format ${format} is not supported yet`, 'UNSUPPORTED_MEDIA_TYPE');
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new IngestRejection(415, 'unsupported_media_type', 'This endpoint accepts Content-Type application/json.', 'UNSUPPORTED_MEDIA_TYPE');
  }
  try {
    JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new IngestRejection(400, 'malformed_payload', 'The body is not valid JSON.', 'MALFORMED_PAYLOAD');
  }
  return { content_type: 'application/json', body_base64: rawBody.toString('base64') };
}
