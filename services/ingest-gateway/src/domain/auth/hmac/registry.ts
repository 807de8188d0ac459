import { HMAC_PRESET_INFO } from '@relay/endpoints';
import type { HmacInboundAuth, HmacPresetName } from '@relay/endpoints';
import type { InboundRequest, VerifyResult } from '../request';
import { verifyCustom } from './custom';
import type { PresetVerifier } from './preset';
import { verifyDiscord } from './presets/discord';
import { verifyGithub } from './presets/github';
import { verifyGitlab } from './presets/gitlab';
import { verifyLinear } from './presets/linear';
import { verifyPaddle } from './presets/paddle';
import { verifyShopify } from './presets/shopify';
import { verifySquare } from './presets/square';
import { verifyStandardWebhooks } from './presets/standard-webhooks';
import { verifyStripe } from './presets/stripe';
import { verifyTwilio } from './presets/twilio';
import { verifyV0Timestamped } from './presets/v0-timestamped';

/** One line per preset; the header names come from the shared settings model. */
export const PRESET_VERIFIERS: { readonly [P in HmacPresetName]: PresetVerifier } = {
  github: verifyGithub,
  stripe: verifyStripe,
  slack: verifyV0Timestamped,
  shopify: verifyShopify,
  twilio: verifyTwilio,
  standard_webhooks: verifyStandardWebhooks,
  svix: verifyStandardWebhooks,
  zoom: verifyV0Timestamped,
  paddle: verifyPaddle,
  square: verifySquare,
  linear: verifyLinear,
  gitlab: verifyGitlab,
  discord: verifyDiscord,
};

export function verifyHmacSetting(setting: HmacInboundAuth, req: InboundRequest, now: Date): VerifyResult {
  if (setting.preset === 'custom') return verifyCustom(setting, req, now);
  const info = HMAC_PRESET_INFO[setting.preset];
  const toleranceSeconds = info.hasTimestamp ? (setting.tolerance_seconds ?? info.defaultToleranceSeconds) : null;
  return PRESET_VERIFIERS[setting.preset](req, { secrets: setting.secrets, info, now, toleranceSeconds });
}
