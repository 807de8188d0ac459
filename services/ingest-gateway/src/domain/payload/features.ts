import type { PayloadFormat } from '@relay/endpoints';

/** Which content features run for a request, given its payload format and parsed payload. */
export interface PayloadFeatures {
  fieldValidation: boolean;
  captcha: boolean;
  bodyFilters: boolean;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Spec "Payload format rules / Feature interaction" for the formats it lists; the others follow
 * the spec's captcha row of the endpoint table ("a token found in a JSON, form or XML body"):
 *
 * | format            | field validation            | captcha | body filters          |
 * |-------------------|-----------------------------|---------|-----------------------|
 * | none              | disabled                    | disabled| disabled (no payload) |
 * | query             | enabled (always an object)  | disabled| raw query string      |
 * | query_base64_json | only when the root is object| disabled| raw query string      |
 * | json, form, xml   | enabled                     | enabled | raw body              |
 * | text              | disabled (a string has no fields) | disabled | raw body       |
 */
export function featuresFor(format: PayloadFormat, data: unknown): PayloadFeatures {
  switch (format) {
    case 'none':
      return { fieldValidation: false, captcha: false, bodyFilters: false };
    case 'query':
      return { fieldValidation: true, captcha: false, bodyFilters: true };
    case 'query_base64_json':
      return { fieldValidation: isObject(data), captcha: false, bodyFilters: true };
    case 'json':
    case 'form':
    case 'xml':
      return { fieldValidation: true, captcha: true, bodyFilters: true };
    case 'text':
      return { fieldValidation: false, captcha: false, bodyFilters: true };
  }
}
