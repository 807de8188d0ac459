import { isNeverForwarded } from '@relay/contracts';

// the never-forwarded list lives in @relay/contracts, shared with the gateway
export { ALWAYS_REMOVED, isNeverForwarded } from '@relay/contracts';

/** Standard Webhooks signature headers, set by Relay when a target signs. */
export const SIGNING_HEADERS: readonly string[] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];

/**
 * Incoming headers never forwarded that an operator may still configure: the credentials a
 * destination legitimately uses (Authorization, Cookie — rule 3 decides Authorization) and the
 * proxy-hop headers, which a configured value describes truthfully (`X-Forwarded-For:
 * {{originating_ip}}`); what is refused is a sender supplying them.
 */
const CONFIGURABLE = /^(authorization|cookie|forwarded|via|x-real-ip|x-forwarded-.*)$/;

/**
 * Names a configured header (custom or API-key) may not take: the never-forwarded list but for
 * CONFIGURABLE, since hop-by-hop, framing, Content-Type (the payload format decides it),
 * Content-Encoding (the body is Relay's) and tracking headers must come from Relay alone.
 */
export function reservedReason(lowerName: string, signing: boolean): string | null {
  if (CONFIGURABLE.test(lowerName)) return null;
  if (isNeverForwarded(lowerName))
    return `${lowerName} is set by Relay or is hop-by-hop and cannot be configured (header rule 4)`;
  if (signing && SIGNING_HEADERS.includes(lowerName)) return `${lowerName} is set by Standard Webhooks signing`;
  return null;
}

/** RFC 9110 field-name token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
export const isHeaderName = (name: string): boolean => TOKEN.test(name);

/** Control characters other than HTAB; CR/LF would split a header (response splitting). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
export const hasControlChars = (value: string): boolean => CONTROL.test(value);

/**
 * Exactly the characters Node's HTTP client sends in a header value: HTAB, U+0020–U+007E and
 * U+0080–U+00FF (written as one Latin-1 byte each). This is Node 20's own test
 * (`checkInvalidHeaderChar` in lib/_http_common.js, behind `http.validateHeaderValue`): any
 * other character — `€`, U+2028, an emoji, CR/LF — makes `request.setHeader` throw
 * ERR_INVALID_CHAR, so a setting holding one could never be delivered.
 */
// eslint-disable-next-line no-control-regex
const NOT_IN_HEADER_VALUE = /[^\t\u0020-\u007e\u0080-\u00ff]/;
export const isHeaderValue = (value: string): boolean => !NOT_IN_HEADER_VALUE.test(value);

/** Why Node would refuse `value` in a header — naming the first such character — or null. */
export function headerValueProblem(value: string): string | null {
  const found = NOT_IN_HEADER_VALUE.exec(value);
  if (!found) return null;
  const code = found[0].codePointAt(0)!;
  return `contains U+${code.toString(16).toUpperCase().padStart(4, '0')} at character ${found.index + 1}; a header value may hold only tab, printable ASCII and Latin-1 (U+0020–U+007E, U+0080–U+00FF), what Node's HTTP client sends`;
}

/** Drops what Node would refuse in a header: substituted template values can then never break a header. */
// eslint-disable-next-line no-control-regex
export const stripNonHeaderChars = (value: string): string => value.replace(/[^\t\u0020-\u007e\u0080-\u00ff]/g, '');

const CREDENTIAL_NAME = /authorization|cookie|token|secret|key|passw|auth|signature|credential|session/;
const CREDENTIAL_VALUE = /^(bearer|basic|token|digest)\s/i;

/** Spec: "a credential-like header is marked sensitive" — by its name, or a value that is an auth scheme. */
export function isCredentialLike(lowerName: string, value: string): boolean {
  return CREDENTIAL_NAME.test(lowerName) || CREDENTIAL_VALUE.test(value);
}
