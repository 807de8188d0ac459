import type { HmacScheme, MacKeyForm } from '@relay/endpoints';
import { anyMacMatches, hmac } from '../../constant-time';
import type { PresetVerifier } from '../preset';
import { verifySignedScheme } from './signed-scheme';

/** Family `hmac`: HMAC over a recipe of body, timestamp, id, URL and method (most providers). */
export const verifyHmacFamily: PresetVerifier = (req, ctx) => {
  const spec = ctx.info.spec;
  const scheme = spec.scheme as HmacScheme;
  return verifySignedScheme(
    spec,
    scheme,
    (secrets, contents, signatures) => {
      const keys = secrets.map((s) => macKey(s, scheme.key));
      // Every key × content pair is computed, so timing does not tell which one matched.
      const expected = keys.flatMap((key) => contents.map((parts) => hmac(scheme.algorithm, key, ...parts)));
      return anyMacMatches(expected, signatures);
    },
    req,
    ctx,
  );
};

/** The key bytes a provider means by its secret (validated at save time). */
export function macKey(secret: string, form: MacKeyForm): Buffer {
  switch (form) {
    case 'text':
      return Buffer.from(secret, 'utf8');
    case 'whsec':
      return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
    case 'base64':
      return Buffer.from(secret, 'base64');
    case 'hex':
      return Buffer.from(secret, 'hex');
  }
}
