import { decodeSignature } from '../../constant-time';
import { headerValue, malformedHeader, missingHeader } from '../../request';
import { afterPrefix, verifyHmac } from '../mac';
import type { PresetVerifier } from '../preset';

/**
 * GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(secret, body)>`. The legacy SHA-1
 * `X-Hub-Signature` is not accepted: GitHub always sends the SHA-256 header with it, and
 * accepting SHA-1 would only weaken the check. No timestamp; receivers dedupe on X-GitHub-Delivery.
 */
export const verifyGithub: PresetVerifier = (req, { secrets, info }) => {
  const value = headerValue(req, info.signatureHeader);
  if (value === undefined) return missingHeader(info.signatureHeader);
  const hex = afterPrefix(value, 'sha256=');
  const signature = hex === undefined ? undefined : decodeSignature(hex, 'hex');
  if (signature === undefined) return malformedHeader(info.signatureHeader);
  return verifyHmac(secrets, 'sha256', [req.rawBody], [signature]);
};
