import type { TokenScheme } from '@relay/endpoints';
import { credentialEquals } from '../../constant-time';
import { fail, headerValue, missingHeader, PASS } from '../../request';
import type { InboundRequest, VerifyResult } from '../../request';
import { afterPrefix } from '../mac';
import type { PresetVerifier } from '../preset';

/**
 * Family `token`: the provider sends the shared secret itself (GitLab's X-Gitlab-Token,
 * Telegram's secret token, Microsoft Graph's clientState in the body). It signs nothing, so a
 * changed body still passes; compared as digests in constant time, every slot checked.
 */
export const verifyTokenFamily: PresetVerifier = (req, { secrets, info }) => {
  const scheme = info.spec.scheme as TokenScheme;
  if (scheme.bodyArrayField !== undefined) return verifyBodyTokens(req, secrets, scheme.bodyArrayField);
  const signature = info.spec.signature;
  if (signature === undefined) return fail('preset has no signature header');
  const value = headerValue(req, signature.header);
  if (value === undefined) return missingHeader(signature.header);
  const token = signature.format.kind === 'plain' ? (afterPrefix(value, signature.format.prefix ?? '') ?? '') : value;
  return matchesAny(token, secrets) ? PASS : fail('wrong token');
};

function matchesAny(token: string, secrets: readonly string[]): boolean {
  let matched = false;
  for (const secret of secrets) matched = credentialEquals(token, secret) || matched;
  return matched;
}

/** Every element of the array must carry a matching token: one forged element fails the batch. */
function verifyBodyTokens(
  req: InboundRequest,
  secrets: readonly string[],
  where: { array: string; field: string },
): VerifyResult {
  let items: unknown;
  try {
    const parsed: unknown = JSON.parse(req.rawBody.toString('utf8'));
    items =
      typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[where.array] : undefined;
  } catch {
    return fail(`body is not JSON with a ${where.array} array`);
  }
  if (!Array.isArray(items) || items.length === 0) return fail(`body is not JSON with a ${where.array} array`);
  let allMatch = true;
  for (const item of items) {
    const token =
      typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[where.field] : undefined;
    allMatch = typeof token === 'string' && matchesAny(token, secrets) && allMatch;
  }
  return allMatch ? PASS : fail(`wrong ${where.field}`);
}
