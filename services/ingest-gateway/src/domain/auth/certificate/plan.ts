import { verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { CertificateProvider } from '@relay/endpoints';
import { fail, PASS, SIGNATURE_MISMATCH } from '../request';
import type { VerifyResult } from '../request';

/**
 * A certificate-signed request read and checked as far as it can be without the certificate:
 * the certificate URL (allowed, not yet fetched) and the signature check to run with its key.
 */
export interface CertificateSigned {
  provider: CertificateProvider;
  certificateUrl: string;
  /** verifies the request's signature with the certificate's public key */
  verify(key: KeyObject): VerifyResult;
  /** SNS's SubscriptionConfirmation: the URL that confirms the subscription, once the signature passed */
  subscribeUrl?: string;
}

export type CertificatePlan = { ok: true; signed: CertificateSigned } | { ok: false; reason: string };

export const refused = (reason: string): CertificatePlan => ({ ok: false, reason });

/** Strict base64, as both providers send it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function base64Signature(text: string): Buffer | undefined {
  return text.length > 0 && BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
}

/** RSA PKCS#1 v1.5 over any of `messages` (rotation slots); every one is tried. */
export function rsaVerifier(
  digest: 'sha1' | 'sha256',
  messages: readonly string[],
  signature: Buffer,
): (key: KeyObject) => VerifyResult {
  return (key) => {
    if (key.asymmetricKeyType !== 'rsa') return fail('the signing certificate key is not RSA');
    let matched = false;
    for (const m of messages) matched = verify(digest, Buffer.from(m, 'utf8'), key, signature) || matched;
    return matched ? PASS : SIGNATURE_MISMATCH;
  };
}
