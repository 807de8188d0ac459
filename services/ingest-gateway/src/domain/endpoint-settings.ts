import {
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  mapInboundAuthSecrets,
  resolveCaptchaSettings,
  signatureHeaderNames,
} from '@relay/endpoints';
import type { InboundAuthSetting, ResolvedCaptchaSettings } from '@relay/endpoints';
import type { EndpointRecord } from '@relay/store';
import { compileIpAccess } from './access/ip-access';
import { compileContentRules } from './rules/content-rules';
import type { CompiledContentRules } from './rules/content-rules';
import { prepareContracts } from './rules/contracts';
import type { CompiledContracts } from './rules/contracts';
import type { Check } from './rules/rejection';

/** An endpoint's settings ready to evaluate requests against. */
export interface EndpointSettings {
  /** secrets opened */
  inboundAuth: InboundAuthSetting;
  /** secret opened, provider defaults filled in; null when captcha is off */
  captcha: ResolvedCaptchaSettings | null;
  contentRules: CompiledContentRules;
  /** JSON Schemas per event type (docs/contracts.md); null: none */
  contracts: CompiledContracts | null;
  ipAccess: (sourceIp: string) => Check;
  /**
   * Spec "Forwarded request" rule 5: the required-header names, the inbound API key header, the
   * HMAC signature header(s) and the signed-timestamp header, lower-case. Removed before the
   * event is published, so these credentials never reach the broker either.
   */
  strippedHeaders: ReadonlySet<string>;
  /** spec "Limits": requests per minute; unset means the documented default */
  ratePerMinute: number;
  base64Param: { name: string | undefined; required: boolean };
}

/**
 * Opens the sealed secrets (`enc:v1:…`) and compiles rules and IP lists. Throws when a secret
 * does not open or a stored setting does not compile; callers cache the result per revision.
 */
export function prepareSettings(endpoint: EndpointRecord, openSecret: (sealed: string) => string): EndpointSettings {
  const inboundAuth = mapInboundAuthSecrets(endpoint.inbound_auth, (sealed) => openSecret(sealed));
  const captcha = endpoint.captcha
    ? resolveCaptchaSettings({ ...endpoint.captcha, secret: openSecret(endpoint.captcha.secret) })
    : null;
  const requiredHeaders = endpoint.required_headers ?? [];
  return {
    inboundAuth,
    captcha,
    contentRules: compileContentRules({
      required_headers: requiredHeaders,
      body_filters: endpoint.body_filters ?? [],
      field_rules: endpoint.field_rules ?? [],
    }),
    contracts: prepareContracts(endpoint.contracts),
    ipAccess: compileIpAccess(endpoint.ip_access ?? { allow: [], deny: [] }),
    strippedHeaders: new Set([
      ...requiredHeaders.map((h) => h.name.toLowerCase()),
      ...signatureHeaderNames(endpoint.inbound_auth),
    ]),
    ratePerMinute: endpoint.rate_limit_per_minute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
    base64Param: { name: endpoint.query_param_name ?? undefined, required: endpoint.query_param_required ?? true },
  };
}
