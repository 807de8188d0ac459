import { HMAC_PRESET_INFO } from './presets';
import type { InboundAuthSetting } from './types';

/**
 * Lower-case names of the headers that carry this setting's inbound credentials, signatures or
 * signed timestamps. The gateway never forwards them (spec "Forwarded request" rule 5), and
 * templates and the header list cannot emit them. Delivery-id headers (`webhook-id`,
 * `x-github-delivery`) are not credentials and stay forwardable for receivers that dedupe.
 */
export function signatureHeaderNames<S>(setting: InboundAuthSetting<S>): string[] {
  switch (setting.type) {
    case 'NONE':
      return [];
    case 'BASIC':
    case 'BEARER':
      return ['authorization'];
    case 'API_KEY':
      return [setting.header.toLowerCase()];
    case 'HMAC': {
      if (setting.preset === 'custom') {
        const { header, timestamp_header } = setting.custom;
        return unique([header, timestamp_header]);
      }
      const info = HMAC_PRESET_INFO[setting.preset];
      return unique([info.signatureHeader, ...info.extraCredentialHeaders, info.timestampHeader]);
    }
  }
}

function unique(names: (string | undefined)[]): string[] {
  return [...new Set(names.flatMap((n) => (n === undefined ? [] : [n.toLowerCase()])))];
}
