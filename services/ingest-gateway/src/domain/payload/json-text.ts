const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * JSON text is UTF-8 (RFC 8259 §8.1): invalid UTF-8 is malformed, a leading byte order mark
 * is ignored (§8.1 allows it). `undefined` when the bytes are not one JSON document.
 */
export function parseJsonBytes(bytes: Uint8Array): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(utf8.decode(bytes)) };
  } catch {
    return undefined;
  }
}
