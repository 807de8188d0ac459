import { credentialEquals } from '../../constant-time';
import { fail, headerValue, missingHeader, PASS } from '../../request';
import { afterPrefix } from '../mac';
import type { PresetVerifier } from '../preset';

/**
 * Family `token`: the provider sends the shared secret itself (GitLab's X-Gitlab-Token,
 * Telegram's secret token). It signs nothing, so a changed body still passes; compared as
 * digests in constant time, every slot checked.
 */
export const verifyTokenFamily: PresetVerifier = (req, { secrets, info }) => {
  const { header, format } = info.spec.signature;
  const value = headerValue(req, header);
  if (value === undefined) return missingHeader(header);
  const token = format.kind === 'plain' ? (afterPrefix(value, format.prefix ?? '') ?? '') : value;
  let matched = false;
  for (const secret of secrets) matched = credentialEquals(token, secret) || matched;
  return matched ? PASS : fail('wrong token');
};
