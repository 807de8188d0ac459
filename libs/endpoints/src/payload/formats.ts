/**
 * Spec "Endpoint / payload format" and "Payload format rules". The keys are the values stored
 * in the endpoint record.
 */
export const PAYLOAD_FORMATS = ['json', 'form', 'xml', 'text', 'none', 'query', 'query_base64_json'] as const;
export type PayloadFormat = (typeof PAYLOAD_FORMATS)[number];

/** The methods an endpoint can be configured to accept (spec "Endpoint / method"). */
export const ENDPOINT_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'GET', 'HEAD'] as const;

/** Formats whose request body is ignored for any method and content type. */
const BODYLESS_FORMATS = ['none', 'query', 'query_base64_json'] as const satisfies readonly PayloadFormat[];
type BodylessFormat = (typeof BODYLESS_FORMATS)[number];
export type BodyFormat = Exclude<PayloadFormat, BodylessFormat>;

export function isBodylessFormat(format: PayloadFormat): format is BodylessFormat {
  return (BODYLESS_FORMATS as readonly string[]).includes(format);
}

/** Content types (media type essence, lower case) each body format accepts; parameters such as charset are allowed. */
export const ACCEPTED_MEDIA_TYPES: { readonly [F in BodyFormat]: readonly string[] } = {
  json: ['application/json'],
  form: ['application/x-www-form-urlencoded'],
  xml: ['application/xml', 'text/xml'],
  text: ['text/plain'],
};

/** Spec "Limits": query parameter pairs. */
export const MAX_QUERY_PARAM_PAIRS = 64;

/**
 * Spec "Ingest / method": GET and HEAD may be used only with None and the two query formats;
 * all other methods work with all formats. For the save-time check of an endpoint's methods.
 */
export function methodAllowedForFormat(method: string, format: PayloadFormat): boolean {
  const m = method.toUpperCase();
  return (m !== 'GET' && m !== 'HEAD') || isBodylessFormat(format);
}
