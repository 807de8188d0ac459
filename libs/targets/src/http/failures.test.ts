import { classifyFailureCode } from './failures';

describe('classifyFailureCode', () => {
  it.each([
    ['SSRF_BLOCKED', 'ssrf_blocked'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'untrusted_certificate'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'untrusted_certificate'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'untrusted_certificate'],
    ['CERT_HAS_EXPIRED', 'expired_certificate'],
    ['RESPONSE_TOO_LARGE', 'response_too_large'],
    ['ERR_INVALID_CHAR', 'unsendable'],
    ['ERR_INVALID_HTTP_TOKEN', 'unsendable'],
    ['ECONNREFUSED', 'transient'],
    ['ETIMEDOUT', 'transient'],
  ])('%s → %s', (code, expected) => expect(classifyFailureCode(code)).toBe(expected));
});
