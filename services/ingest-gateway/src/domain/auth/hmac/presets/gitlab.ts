import { credentialEquals } from '../../constant-time';
import { fail, headerValue, missingHeader, PASS } from '../../request';
import type { PresetVerifier } from '../preset';

/** GitLab: `X-Gitlab-Token: <secret token>`, a shared token rather than a MAC, compared in constant time. */
export const verifyGitlab: PresetVerifier = (req, { secrets, info }) => {
  const token = headerValue(req, info.signatureHeader);
  if (token === undefined) return missingHeader(info.signatureHeader);
  let matched = false;
  for (const secret of secrets) matched = credentialEquals(token, secret) || matched;
  return matched ? PASS : fail('wrong token');
};
