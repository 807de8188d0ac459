import { HMAC_PRESET_INFO } from '@relay/endpoints';
import type { HmacInboundAuth, PresetScheme } from '@relay/endpoints';
import { fail } from '../request';
import type { InboundRequest, VerifyResult } from '../request';
import { verifyCustom } from './custom';
import { verifyHmacFamily } from './families/hmac';
import { verifyPublicKeyFamily } from './families/public-key';
import { verifyTokenFamily } from './families/token';
import { verifyUrlFormFamily } from './families/url-form';
import type { PresetVerifier } from './preset';

/**
 * The verification families. A preset is data (libs/endpoints auth/presets/catalog); its
 * `scheme.family` picks which of these interprets it. A new family is only for a scheme the
 * data cannot describe, and only when several providers use it.
 */
export const FAMILY_VERIFIERS: { readonly [F in PresetScheme['family']]: PresetVerifier } = {
  hmac: verifyHmacFamily,
  public_key: verifyPublicKeyFamily,
  token: verifyTokenFamily,
  url_form: verifyUrlFormFamily,
  // needs the certificate the request names, fetched: the ingest pipeline's certificate step
  // (domain/pipeline/certificate-auth.ts) verifies these; without it, fail closed
  certificate: () => fail('a certificate-signed preset is verified with its fetched certificate'),
};

export function verifyHmacSetting(setting: HmacInboundAuth, req: InboundRequest, now: Date): VerifyResult {
  if (setting.preset === 'custom') return verifyCustom(setting, req, now);
  const info = HMAC_PRESET_INFO[setting.preset];
  const toleranceSeconds = info.hasTimestamp ? (setting.tolerance_seconds ?? info.defaultToleranceSeconds) : null;
  return FAMILY_VERIFIERS[info.spec.scheme.family](req, { secrets: setting.secrets, info, now, toleranceSeconds });
}
