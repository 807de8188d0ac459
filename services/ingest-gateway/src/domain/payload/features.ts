import { FORMAT_FEATURES } from '@relay/endpoints';
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

/** The format's row of the feature table (`FORMAT_FEATURES`, spec "Feature interaction"), for this payload. */
export function featuresFor(format: PayloadFormat, data: unknown): PayloadFeatures {
  const row = FORMAT_FEATURES[format];
  return {
    fieldValidation: row.fieldValidation === 'enabled' || (row.fieldValidation === 'object_root' && isObject(data)),
    captcha: row.captcha,
    bodyFilters: row.bodyFilters !== 'none',
  };
}
