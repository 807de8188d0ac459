import type { SignedPart } from '@relay/endpoints';
import type { InboundRequest } from '../../request';
import { urlPortVariants } from '../url-variants';

/** Header values a recipe may use, as received (never re-formatted: the sender signed these bytes). */
export interface SignedValues {
  timestamp?: string;
  id?: string;
}

/**
 * The candidate byte sequences a recipe describes: one, or one per URL form when the preset
 * tries the URL with its default port added and removed (Square's and Twilio's validators).
 */
export function signedContents(
  recipe: readonly SignedPart[],
  req: InboundRequest,
  values: SignedValues,
  urlPortVariantsOn: boolean,
): (string | Buffer)[][] {
  const urls = urlPortVariantsOn && recipe.includes('url') ? urlPortVariants(req.url) : [req.url];
  return urls.map((url) =>
    recipe.map((part): string | Buffer => {
      if (typeof part !== 'string') return part.text;
      if (part === 'body') return req.rawBody;
      if (part === 'url') return url;
      if (part === 'method') return req.method.toUpperCase();
      return values[part] ?? '';
    }),
  );
}
