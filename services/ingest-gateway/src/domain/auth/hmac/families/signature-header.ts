import type { MacEncoding, SignatureFormat } from '@relay/endpoints';
import { decodeSignature } from '../../constant-time';
import { afterPrefix } from '../mac';

/** What a signature header holds: one or more signatures, and a timestamp for Stripe-like layouts. */
export interface ParsedSignatureHeader {
  signatures: Buffer[];
  timestamp?: string;
}

/**
 * Reads a signature header by the preset's layout. Undefined means malformed: no decodable
 * signature, or a pairs layout without its timestamp. In lists and pairs, entries of other
 * versions or that do not decode are skipped (a provider may add schemes we do not verify).
 */
export function parseSignatureHeader(
  value: string,
  format: SignatureFormat,
  encoding: MacEncoding,
): ParsedSignatureHeader | undefined {
  switch (format.kind) {
    case 'plain': {
      const text = afterPrefix(value, format.prefix ?? '');
      const signature = text === undefined ? undefined : decodeSignature(text, encoding);
      return signature === undefined ? undefined : { signatures: [signature] };
    }
    case 'list': {
      const signatures = value
        .split(format.separator)
        .map((entry) => afterPrefix(entry.trim(), format.prefix))
        .flatMap((text) => (text === undefined ? [] : [decodeSignature(text, encoding)]))
        .filter((sig): sig is Buffer => sig !== undefined);
      return signatures.length === 0 ? undefined : { signatures };
    }
    case 'pairs':
      return parsePairs(value, format.separator, format.signatureKey, format.timestampKey, encoding);
    case 'timestamp_then_signatures': {
      const [timestamp = '', ...entries] = value.split(format.separator).map((entry) => entry.trim());
      const signatures = entries
        .map((e) => decodeSignature(e, encoding))
        .filter((sig): sig is Buffer => sig !== undefined);
      return timestamp === '' || signatures.length === 0 ? undefined : { signatures, timestamp };
    }
  }
}

function parsePairs(
  value: string,
  separator: string,
  signatureKey: string,
  timestampKey: string | undefined,
  encoding: MacEncoding,
): ParsedSignatureHeader | undefined {
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const item of value.split(separator)) {
    const eq = item.indexOf('=');
    if (eq < 0) continue;
    const key = item.slice(0, eq).trim();
    const val = item.slice(eq + 1).trim();
    if (key === timestampKey) timestamp = val;
    if (key === signatureKey) {
      const signature = decodeSignature(val, encoding);
      if (signature !== undefined) signatures.push(signature);
    }
  }
  if (signatures.length === 0 || (timestampKey !== undefined && timestamp === undefined)) return undefined;
  return timestamp === undefined ? { signatures } : { signatures, timestamp };
}
