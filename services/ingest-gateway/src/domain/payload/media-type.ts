/** RFC 9110 §8.3.1 `type "/" subtype`, each a token. */
const ESSENCE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * The media type essence of a Content-Type header, lower case, without parameters
 * (`Application/JSON; charset=UTF-8` → `application/json`); `null` when absent or unparseable.
 */
export function mediaTypeOf(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return ESSENCE.test(essence) ? essence : null;
}

export function isMultipart(mediaType: string | null): boolean {
  return mediaType !== null && mediaType.startsWith('multipart/');
}
