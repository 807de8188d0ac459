/**
 * What a target answered to one delivery attempt, as its activity row keeps it: the response headers and the start of the body, beside the attempt's status and
 * duration. Every part is capped so an attempt adds at most a few KB to its row whatever the
 * target sends (docs/delivery.md "What a row keeps of a response"), and a header whose name
 * says it carries a credential keeps only `[redacted]`.
 */
export interface KeptResponse {
  /** response headers by lower-case name (a repeated header joined by ", "), at most MAX_KEPT_HEADERS */
  headers: Record<string, string>;
  /** headers left out past MAX_KEPT_HEADERS */
  headers_omitted: number;
  /** the first MAX_KEPT_BODY_CHARS characters of the body the deliverer read */
  body: string;
  /** the body was longer than what is kept */
  body_truncated: boolean;
}

/** At most this many headers per attempt, in the order the target sent them. */
export const MAX_KEPT_HEADERS = 20;
/** A header name longer than this is cut; HTTP names are short. */
export const MAX_KEPT_HEADER_NAME = 64;
/** A header value longer than this is cut (with "…"). */
export const MAX_KEPT_HEADER_VALUE = 256;
/** Characters of the body kept per attempt (the deliverer reads the first 4 KB to classify). */
export const MAX_KEPT_BODY_CHARS = 1024;

export const REDACTED = '[redacted]';

/**
 * Header names whose values are credentials, by name alone — a value is never judged: the
 * standard ones and any name that says token, secret, signature, password, API key or session.
 * The request view redacts the sender's headers with the same rule.
 */
const CREDENTIAL_NAME =
  /^(authorization|proxy-authorization|proxy-authenticate|www-authenticate|cookie|set-cookie)$|token|secret|signature|password|api[-_]?key|session/i;

export const isCredentialHeader = (name: string): boolean => CREDENTIAL_NAME.test(name);

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, isCredentialHeader(name) ? REDACTED : value]),
  );
}

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A response as the deliverer read it, trimmed to what the row keeps. */
export function keptResponse(response: {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}): KeptResponse {
  const headers: Record<string, string> = {};
  let kept = 0;
  let omitted = 0;
  for (const [rawName, raw] of Object.entries(response.headers)) {
    if (raw === undefined) continue;
    if (kept === MAX_KEPT_HEADERS) {
      omitted++;
      continue;
    }
    const name = cut(rawName.toLowerCase(), MAX_KEPT_HEADER_NAME);
    headers[name] = isCredentialHeader(name)
      ? REDACTED
      : cut(Array.isArray(raw) ? raw.join(', ') : raw, MAX_KEPT_HEADER_VALUE);
    kept++;
  }
  return {
    headers,
    headers_omitted: omitted,
    body: response.body.slice(0, MAX_KEPT_BODY_CHARS),
    body_truncated: response.body.length > MAX_KEPT_BODY_CHARS,
  };
}
