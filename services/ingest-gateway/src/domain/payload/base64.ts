const BASE64_BODY = /^[A-Za-z0-9+/]*$/;

/**
 * Spec "Query Parameters (Base64 JSON)": standard and URL-safe alphabets (`-` and `_` for `+`
 * and `/`) are accepted, padding is optional. Whitespace, other characters, a length that no
 * encoding produces (4n+1) or wrong padding make the value invalid (`null`). A value mixing
 * both alphabets is accepted: each character has only one meaning.
 */
export function decodeBase64(value: string): Buffer | null {
  const unpadded = value.replace(/={1,2}$/, '');
  const padded = unpadded.length !== value.length;
  const standard = unpadded.replace(/-/g, '+').replace(/_/g, '/');
  if (!BASE64_BODY.test(standard) || standard.length % 4 === 1) return null;
  if (padded && value.length % 4 !== 0) return null;
  return Buffer.from(standard, 'base64');
}
