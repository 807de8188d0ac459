import type { TestRequestEnvelope } from '@relay/contracts';
import type { StoredPayload } from '@relay/activity-log';
import type { ActivityDoc } from '@relay/store';

/** Why a row cannot be re-run (docs/management-api.md "Re-run"), or null when it can. */
export function notRerunnable(
  row: Pick<ActivityDoc, 'quarantine'>,
): 'not_quarantined' | 'quarantine_bound_reached' | null {
  if (row.quarantine === 'kept') return null;
  return row.quarantine === 'bound_reached' ? 'quarantine_bound_reached' : 'not_quarantined';
}

/**
 * The kept request, as the gateway's pipeline reads a sender's: its method, query, headers
 * (credentials were removed when it was kept) and body with its Content-Type, from the
 * sender's address. A re-run of a re-run names the first request: every re-run of one
 * refused event shares its de-duplication key at the gateway, so at most one is accepted.
 */
export function rerunEnvelope(
  row: Pick<ActivityDoc, 'endpoint_id' | 'rerun_of'> & { id: string },
  stored: StoredPayload,
): TestRequestEnvelope {
  const { id: eventId, endpoint_id: endpointId, rerun_of: rerunOf } = row;
  const { request, payload } = stored;
  return {
    endpoint_id: endpointId,
    method: request.method,
    headers:
      payload.content_type === null ? request.headers : { ...request.headers, 'content-type': payload.content_type },
    query: request.query,
    body_base64: payload.body_base64,
    source_ip: request.source_ip,
    rerun_of: rerunOf ?? eventId,
  };
}
