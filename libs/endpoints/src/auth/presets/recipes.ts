import type { HmacScheme, MacAlgorithm, MacEncoding, PresetSpec, SignatureFormat } from './spec';

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

/**
 * A provider that MACs only the body and sends the signature in one header: the most common
 * scheme, one line per provider in the catalog.
 */
export function bodySigned(
  label: string,
  docs: string,
  header: string,
  algorithm: MacAlgorithm,
  encoding: MacEncoding,
  where: string,
  extra: Partial<Pick<PresetSpec, 'id' | 'extraCredentialHeaders' | 'oracle' | 'handshake'>> & { prefix?: string } = {},
): PresetSpec {
  const { prefix, ...rest } = extra;
  return {
    label,
    docs,
    scheme: bodyMac(algorithm, encoding),
    signature: { header, format: prefix === undefined ? PLAIN : prefixed(prefix) },
    secret: { format: 'text', where },
    oracle: { kind: 'documented' },
    ...rest,
  };
}

/** A provider that sends the shared secret itself in a header (signs nothing). */
export function tokenHeader(
  label: string,
  docs: string,
  header: string,
  where: string,
  id?: PresetSpec['id'],
): PresetSpec {
  return {
    label,
    docs,
    scheme: { family: 'token' },
    signature: { header, format: PLAIN },
    ...(id === undefined ? {} : { id }),
    secret: { format: 'text', where },
    oracle: { kind: 'documented' },
  };
}

/** Stripe's scheme (`t=<ts>,v1=<hex>` over `t + "." + body`) as other providers adopted it. */
export function stripeScheme(
  label: string,
  docs: string,
  header: string,
  where: string,
  opts: {
    toleranceSeconds: number | null;
    unit?: 'seconds' | 'milliseconds';
    signatureKey?: string;
    timestampKey?: string;
    encoding?: MacEncoding;
    id?: PresetSpec['id'];
  },
): PresetSpec {
  return {
    label,
    docs,
    scheme: {
      family: 'hmac',
      algorithm: 'sha256',
      key: 'text',
      signed: ['timestamp', { text: '.' }, 'body'],
      encoding: opts.encoding ?? 'hex',
    },
    signature: { header, format: stripeLike(opts.signatureKey ?? 'v1', opts.timestampKey ?? 't') },
    timestamp: { unit: opts.unit ?? 'seconds', toleranceSeconds: opts.toleranceSeconds },
    ...(opts.id === undefined ? {} : { id: opts.id }),
    secret: { format: 'text', where },
    oracle: { kind: 'documented' },
  };
}
