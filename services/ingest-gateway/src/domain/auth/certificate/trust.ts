import { X509Certificate } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { CertificateProvider } from '@relay/endpoints';
import { SIGNING_CERTIFICATE_NAMES } from './urls';

/**
 * What a fetched signing certificate comes to: its public key and the end of its validity, or
 * why it is not trusted. `untrusted` is a refusal of the request (401 AUTH_FAILED); it names the
 * check that failed, never the certificate's content.
 */
export type TrustVerdict = { ok: true; key: KeyObject; notAfter: Date } | { ok: false; untrusted: string };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
/** Leaf, intermediates: more than this is no provider's chain. */
const MAX_CHAIN = 5;

/**
 * The checks the providers document for their signing certificate (docs/inbound-auth.md
 * "Certificate-signed presets"): the leaf (the first certificate of the response; the others
 * may be its intermediates) chains to a trust anchor through CA certificates, each signature
 * checked; every certificate of that chain is valid at `now`; the leaf names the provider's
 * signing service; its key is RSA, which both providers sign with.
 */
export function checkSigningCertificate(
  pem: string,
  anchors: readonly X509Certificate[],
  provider: CertificateProvider,
  now: Date,
): TrustVerdict {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) return { ok: false, untrusted: 'the certificate URL answered no PEM certificate' };
  if (blocks.length > MAX_CHAIN) return { ok: false, untrusted: 'the certificate URL answered too many certificates' };
  let certs: X509Certificate[];
  try {
    certs = blocks.map((b) => new X509Certificate(b));
  } catch {
    return { ok: false, untrusted: 'the signing certificate does not parse' };
  }
  const leaf = certs[0]!;
  if (!namesProvider(leaf, SIGNING_CERTIFICATE_NAMES[provider]))
    return { ok: false, untrusted: `the signing certificate does not name ${SIGNING_CERTIFICATE_NAMES[provider][0]}` };
  if (leaf.publicKey.asymmetricKeyType !== 'rsa')
    return { ok: false, untrusted: 'the signing certificate key is not RSA' };

  const chain = chainOf(leaf, certs.slice(1), anchors);
  if (chain === null) return { ok: false, untrusted: 'the signing certificate does not chain to a trusted root' };
  for (const cert of chain) {
    if (now.getTime() < Date.parse(cert.validFrom))
      return { ok: false, untrusted: `a certificate of the signing chain is not valid before ${iso(cert.validFrom)}` };
    if (now.getTime() > Date.parse(cert.validTo))
      return { ok: false, untrusted: `a certificate of the signing chain expired on ${iso(cert.validTo)}` };
  }
  const notAfter = new Date(Math.min(...chain.map((c) => Date.parse(c.validTo))));
  return { ok: true, key: leaf.publicKey, notAfter };
}

/** The path from the leaf to an anchor (the anchor included), or null. */
function chainOf(
  leaf: X509Certificate,
  intermediates: readonly X509Certificate[],
  anchors: readonly X509Certificate[],
): X509Certificate[] | null {
  const path = [leaf];
  let current = leaf;
  for (let depth = 0; depth < MAX_CHAIN; depth++) {
    const anchor = anchors.find((a) => issued(a, current));
    if (anchor) return [...path, anchor];
    const next = intermediates.find((c) => c.ca && !path.includes(c) && issued(c, current));
    if (!next) return null;
    path.push(next);
    current = next;
  }
  return null;
}

function issued(issuer: X509Certificate, subject: X509Certificate): boolean {
  try {
    return subject.checkIssued(issuer) && subject.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

function namesProvider(cert: X509Certificate, names: readonly string[]): boolean {
  const cn = /^CN=(.*)$/m.exec(cert.subject)?.[1];
  const dns = (cert.subjectAltName ?? '')
    .split(', ')
    .filter((n) => n.startsWith('DNS:'))
    .map((n) => n.slice(4));
  return names.some((name) => name === cn || dns.includes(name));
}

const iso = (text: string): string => new Date(text).toISOString();
