import type { StoredPayload } from '@relay/activity-log';
import { redactHeaders } from '@relay/contracts';

/**
 * The request of an accepted event as the activity detail shows it: method,
 * source IP, query, headers (credentials redacted by name, @relay/contracts redactHeaders — the
 * rule a row's kept responses follow too; the gateway already drops the inbound-auth headers
 * before it keeps a request, this is the second line for a sender's own credentials under names
 * Relay does not know, `X-Shop-Token`), and the payload as kept for resends — its
 * exact bytes (base64), its size, and its text when the bytes are UTF-8, for the pretty and raw
 * views.
 */
export function requestView(eventId: string, stored: StoredPayload) {
  const bytes = Buffer.from(stored.payload.body_base64, 'base64');
  const text = bytes.toString('utf8');
  // bytes that are not UTF-8 decode with U+FFFD: no text view, the download has them exactly
  const isText = Buffer.from(text, 'utf8').equals(bytes);
  return {
    event_id: eventId,
    method: stored.request.method,
    source_ip: stored.request.source_ip,
    query: stored.request.query,
    headers: redactHeaders(stored.request.headers),
    content_type: stored.payload.content_type,
    size_bytes: bytes.length,
    body_base64: stored.payload.body_base64,
    body_text: isText ? text : null,
  };
}
