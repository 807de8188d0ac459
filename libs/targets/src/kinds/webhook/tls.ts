import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { CheckContext } from '../../describe/field';

/*
 * The save-time rules of a webhook target's mutual TLS settings (docs/targets-webhook.md
 * "Mutual TLS"). Messages name the field and what is wrong, never the PEM: a key is a secret,
 * and a certificate pasted into the wrong field may be one too.
 */

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate of a PEM bundle, or why the bundle is unusable. */
export function parseCertificates(pem: string): X509Certificate[] | string {
  if (/PRIVATE KEY-----/.test(pem)) return 'holds a private key; a private key belongs in client_key_pem only';
  const blocks = pem.match(CERTIFICATE_BLOCK);
  if (!blocks) return 'must hold at least one PEM certificate (-----BEGIN CERTIFICATE-----)';
  const certs: X509Certificate[] = [];
  for (const [i, block] of blocks.entries()) {
    try {
      certs.push(new X509Certificate(block));
    } catch {
      return `certificate ${i + 1} of ${blocks.length} is not a parsable X.509 certificate`;
    }
  }
  return certs;
}

function parseKey(pem: string): KeyObject | string {
  if (/ENCRYPTED/.test(pem)) return 'is an encrypted private key; store it unencrypted (it is sealed at rest)';
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    return 'must be a PEM private key (-----BEGIN PRIVATE KEY-----, RSA or EC)';
  }
}

/** The client certificate (the leaf, first) is used in every handshake: an expired one cannot work. */
export function checkClientCertificate(value: string, ctx: CheckContext): void {
  const certs = parseCertificates(value);
  if (typeof certs === 'string') return ctx.fail(certs);
  const leaf = certs[0]!;
  const expires = new Date(leaf.validTo);
  if (expires.getTime() < Date.now()) ctx.fail(`the client certificate expired on ${expires.toISOString()}`);
}

/** The key must open and belong to the certificate it is sent with, or every handshake fails. */
export function checkClientKey(value: string, ctx: CheckContext): void {
  const key = parseKey(value);
  if (typeof key === 'string') return ctx.fail(key);
  const tls = ctx.config.tls;
  const certPem = isObject(tls) && typeof tls.client_certificate_pem === 'string' ? tls.client_certificate_pem : '';
  const certs = parseCertificates(certPem);
  // an unusable certificate is reported at its own field
  if (typeof certs !== 'string' && !certs[0]!.checkPrivateKey(key))
    ctx.fail('does not match client_certificate_pem (the key is not the certificate’s private key)');
}

export function checkPinnedCa(value: string, ctx: CheckContext): void {
  const certs = parseCertificates(value);
  if (typeof certs === 'string') ctx.fail(certs);
}

/**
 * Certificate and key together; at least one setting, or `tls` means nothing; an https URL, or
 * there is no handshake to take part in.
 */
export function checkTls(value: Raw, ctx: CheckContext): void {
  if (typeof ctx.config.url === 'string' && !ctx.config.url.startsWith('https:'))
    ctx.fail('mutual TLS needs an https url');
  const hasCert = value.client_certificate_pem !== undefined;
  const hasKey = value.client_key_pem !== undefined;
  if (hasCert && !hasKey)
    ctx.fail('client_key_pem is required with client_certificate_pem', `${ctx.path}.client_key_pem`);
  else if (hasKey && !hasCert)
    ctx.fail('client_certificate_pem is required with client_key_pem', `${ctx.path}.client_certificate_pem`);
  else if (!hasCert && value.ca_pem === undefined)
    ctx.fail('set client_certificate_pem and client_key_pem, ca_pem, or both (or omit tls)');
}
