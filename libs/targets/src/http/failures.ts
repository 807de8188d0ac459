/**
 * Node/OpenSSL verification codes for a certificate that will not become valid by waiting:
 * self-signed, unknown issuer, wrong host name. The spec rejects such certificates even with
 * Enforce HTTPS off ("Outbound"); retrying the same configuration cannot succeed.
 */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);

/** Time-bound certificate problems: a renewed certificate (or a corrected clock) fixes them. */
const EXPIRED_CERTIFICATE = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/**
 * The sender stopped reading a 2xx answer past its body limit (send.ts): not a completed
 * delivery, and the same destination would answer the same way again.
 */
export const RESPONSE_TOO_LARGE = 'RESPONSE_TOO_LARGE';

/**
 * A request that is not `resendable` met a reused connection reset before any answer (send.ts):
 * it may have arrived. Transient: the next attempt decides, after checking if it can.
 */
export const RESET_UNANSWERED = 'RESET_UNANSWERED';

/**
 * Node's HTTP client refused to send the request as built — a header value or name it cannot
 * encode (`validateHeaderValue`), a path it cannot write. The same config builds the same
 * request, so waiting cannot help: retrying would only fill the whole schedule with failures.
 */
const UNSENDABLE = new Set([
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_UNESCAPED_CHARACTERS',
  'ERR_INVALID_URL',
]);

/**
 * The receiver's TLS alert when it asks for a client certificate and none was presented
 * (TLS 1.3 `certificate_required`, RFC 8446 §4.4.2.4). Under TLS 1.2 a server sends a
 * generic `handshake_failure` instead, which names no cause and stays transient.
 */
const CLIENT_CERTIFICATE_REQUIRED = 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED';

/**
 * The receiver's TLS alerts refusing the client certificate that was presented (RFC 8446 §6.2):
 * an issuer it does not trust, a certificate it rejects, expired or revoked. Each needs the
 * target's certificate (or the receiver's trust) changed; the next attempt would send the same.
 */
const CLIENT_CERTIFICATE_REJECTED = new Set([
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
]);

export type FailureClass =
  | 'ssrf_blocked'
  | 'untrusted_certificate'
  | 'expired_certificate'
  | 'client_certificate_required'
  | 'client_certificate_rejected'
  | 'response_too_large'
  | 'unsendable'
  | 'transient';

/** Which kind of network failure a send outcome's code names. */
export function classifyFailureCode(code: string): FailureClass {
  if (code === 'SSRF_BLOCKED') return 'ssrf_blocked';
  if (code === RESPONSE_TOO_LARGE) return 'response_too_large';
  if (UNSENDABLE.has(code)) return 'unsendable';
  if (UNTRUSTED_CERTIFICATE.has(code)) return 'untrusted_certificate';
  if (EXPIRED_CERTIFICATE.has(code)) return 'expired_certificate';
  if (code === CLIENT_CERTIFICATE_REQUIRED) return 'client_certificate_required';
  if (CLIENT_CERTIFICATE_REJECTED.has(code)) return 'client_certificate_rejected';
  return 'transient';
}
