import type { InboundAuthSetting } from '@relay/endpoints';
import { verifyApiKey, verifyBasic, verifyBearer } from './credentials';
import { verifyHmacSetting } from './hmac/registry';
import { PASS } from './request';
import type { InboundRequest, VerifyResult } from './request';

/**
 * Spec "Authentication / Inbound": checks the sender's credentials against the endpoint's
 * setting. Pure: no I/O, the clock is a parameter. A failure becomes 401 AUTH_FAILED with
 * `reason` as the activity row's error reason (spec "Errors").
 */
export function verifyInbound(setting: InboundAuthSetting, req: InboundRequest, now: Date): VerifyResult {
  switch (setting.type) {
    case 'NONE':
      return PASS;
    case 'BASIC':
      return verifyBasic(setting, req);
    case 'BEARER':
      return verifyBearer(setting, req);
    case 'API_KEY':
      return verifyApiKey(setting, req);
    case 'HMAC':
      return verifyHmacSetting(setting, req, now);
  }
}
