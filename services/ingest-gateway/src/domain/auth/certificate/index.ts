import { HMAC_PRESET_INFO } from '@relay/endpoints';
import type { InboundAuthSetting } from '@relay/endpoints';
import type { InboundRequest } from '../request';
import { paypalPlan } from './paypal';
import { snsPlan } from './sns';
import type { CertificatePlan } from './plan';

/**
 * A certificate-signed preset's request, checked as far as it can be before the certificate is
 * fetched; null when the endpoint's setting is not a certificate-signed preset.
 */
export function certificatePlanOf(setting: InboundAuthSetting, req: InboundRequest, now: Date): CertificatePlan | null {
  if (setting.type !== 'HMAC' || setting.preset === 'custom') return null;
  const info = HMAC_PRESET_INFO[setting.preset];
  const scheme = info.spec.scheme;
  if (scheme.family !== 'certificate') return null;
  if (scheme.provider === 'aws_sns') return snsPlan(req.rawBody, setting.secrets);
  const tolerance = setting.tolerance_seconds ?? info.defaultToleranceSeconds;
  return paypalPlan(req, setting.secrets, tolerance, now);
}

export { checkSigningCertificate } from './trust';
export type { TrustVerdict } from './trust';
export type { CertificatePlan, CertificateSigned } from './plan';
