import type { HmacScheme, MacAlgorithm, MacEncoding, SignatureFormat } from './spec';

/**
 * Shorthands for the schemes most providers share, so a catalog entry reads like the provider's
 * documentation ("hex HMAC-SHA256 of the body") instead of repeating the same five fields.
 * They only build data; nothing here verifies.
 */
export function bodyMac(algorithm: MacAlgorithm, encoding: MacEncoding): HmacScheme {
  return { family: 'hmac', algorithm, key: 'text', signed: ['body'], encoding };
}

export const PLAIN: SignatureFormat = { kind: 'plain' };

export function prefixed(prefix: string): SignatureFormat {
  return { kind: 'plain', prefix };
}

/** Stripe's layout `t=<ts>,v1=<sig>[,v1=<sig>]`, which many providers copied. */
export function stripeLike(signatureKey = 'v1', timestampKey = 't', separator = ','): SignatureFormat {
  return { kind: 'pairs', separator, signatureKey, timestampKey };
}

/** Standard Webhooks' `webhook-signature: v1,<base64> [v1,<base64>]`. */
export const STANDARD_SIGNATURE_LIST: SignatureFormat = { kind: 'list', separator: ' ', prefix: 'v1,' };

export const STANDARD_SCHEME: HmacScheme = {
  family: 'hmac',
  algorithm: 'sha256',
  key: 'whsec',
  signed: ['id', { text: '.' }, 'timestamp', { text: '.' }, 'body'],
  encoding: 'base64',
};
