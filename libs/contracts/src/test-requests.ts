/**
 * The internal route a management API runs test requests through (POST /v1/endpoints/:id/test):
 * a gateway's HEALTH_PORT, signed with a key derived from SECRETS_KEYS (@relay/secrets
 * createInternalSigner). Both sides of that wire read their shapes from here.
 */
export const TEST_REQUEST_ROUTE = '/internal/v1/test-requests/:endpointId';
export const testRequestPath = (endpointId: string): string =>
  `/internal/v1/test-requests/${encodeURIComponent(endpointId)}`;

/** The request a sender would have sent, as the management API hands it to the gateway. */
export interface TestRequestEnvelope {
  endpoint_id: string;
  method: string;
  /** lower-case names */
  headers: Record<string, string>;
  /** raw query string without `?` */
  query: string;
  body_base64: string;
  /** the address the owner called the management API from: the row's source IP */
  source_ip: string;
  /**
   * A re-run of this quarantined request (docs/ingest.md "Quarantine"), not a test: the
   * sender's request as kept, run as if just received, authentication skipped (it passed).
   */
  rerun_of?: string;
}

/** What the gateway's pipeline answered a test request (the internal route's 200 body). */
export type TestRequestAnswer =
  | { accepted: true; event_id: string; target_count: number; replayed: boolean }
  | {
      accepted: false;
      event_id: string | null;
      status: number;
      code: string;
      message: string;
      outcome: string | null;
      reason: string | null;
    };
