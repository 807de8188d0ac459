/** What inbound verification reads from a request; built by the transport layer. */
export interface InboundRequest {
  method: string;
  /** Full URL as the sender used it, e.g. https://relay.example/relay/ep_1?x=1 (Twilio and Square sign it). */
  url: string;
  /** Lower-case names, as node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received: every signature is checked over these bytes. */
  rawBody: Buffer;
}

/**
 * `reason` goes to the activity log (spec "Activity record", error reason): short, and never a
 * secret, a received credential or an expected signature.
 */
export type VerifyResult = { ok: true } | { ok: false; reason: string };

export const PASS: VerifyResult = { ok: true };

export function fail(reason: string): VerifyResult {
  return { ok: false, reason };
}

export const missingHeader = (name: string): VerifyResult => fail(`missing ${name} header`);
export const malformedHeader = (name: string): VerifyResult => fail(`malformed ${name} header`);
export const SIGNATURE_MISMATCH: VerifyResult = fail('signature mismatch');

/**
 * A header's value, or undefined when absent or empty. Node joins repeated unknown headers with
 * ", "; an array (only produced for a few known headers) is joined the same way.
 */
export function headerValue(req: InboundRequest, name: string): string | undefined {
  const raw = req.headers[name.toLowerCase()];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  return value === undefined || value === '' ? undefined : value;
}
