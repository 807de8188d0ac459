import type { PayloadFormat } from './formats';

/** Which content features an endpoint's payload format leaves on. */
interface FormatFeatures {
  /** `object_root`: only when the decoded payload's root is a JSON object */
  fieldValidation: 'enabled' | 'disabled' | 'object_root';
  /** a captcha token can be read from the payload */
  captcha: boolean;
  /** what body filters test: the raw body, the raw query string, or nothing (they do not run) */
  bodyFilters: 'raw_body' | 'raw_query' | 'none';
}

/**
 * Spec "Payload format rules / Feature interaction" for the formats it lists; the body formats
 * follow the spec's captcha row of the endpoint table ("a token found in a JSON, form or XML
 * body"). The one table both sides read: the gateway decides per request which features run,
 * the management API refuses a setting its format would switch off. A new format must fill
 * its row here.
 *
 * | format            | field validation             | captcha  | body filters          |
 * |-------------------|------------------------------|----------|-----------------------|
 * | none              | disabled                     | disabled | disabled (no payload) |
 * | query             | enabled (always an object)   | disabled | raw query string      |
 * | query_base64_json | only when the root is object | disabled | raw query string      |
 * | json, form, xml   | enabled                      | enabled  | raw body              |
 * | text              | disabled (a string has no fields) | disabled | raw body         |
 */
export const FORMAT_FEATURES: { readonly [F in PayloadFormat]: FormatFeatures } = {
  none: { fieldValidation: 'disabled', captcha: false, bodyFilters: 'none' },
  query: { fieldValidation: 'enabled', captcha: false, bodyFilters: 'raw_query' },
  query_base64_json: { fieldValidation: 'object_root', captcha: false, bodyFilters: 'raw_query' },
  json: { fieldValidation: 'enabled', captcha: true, bodyFilters: 'raw_body' },
  form: { fieldValidation: 'enabled', captcha: true, bodyFilters: 'raw_body' },
  xml: { fieldValidation: 'enabled', captcha: true, bodyFilters: 'raw_body' },
  text: { fieldValidation: 'disabled', captcha: false, bodyFilters: 'raw_body' },
};
