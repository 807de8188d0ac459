import { mapInboundAuthSecrets, redactInboundAuth } from '@relay/endpoints';
import type { CaptchaSettings, InboundAuthSetting, RedactedInboundAuth, RedactedSecret } from '@relay/endpoints';

/**
 * Secrets at rest: inbound-auth secrets and the captcha secret are sealed (`enc:v1:…`) before an
 * endpoint is stored, and only ever leave this service redacted. `Sealer` is the part of
 * @relay/secrets' SecretBox used here.
 */
export interface Sealer {
  encrypt(plaintext: string): string;
  decrypt(stored: string): string;
  isEncrypted(value: string): boolean;
}

/** Opens a stored secret. A value stored before sealing existed is plaintext and passes as is. */
export function openerOf(box: Sealer): (stored: string) => string {
  return (stored) => (box.isEncrypted(stored) ? box.decrypt(stored) : stored);
}

export function sealInboundAuth(plain: InboundAuthSetting, box: Sealer): InboundAuthSetting {
  return mapInboundAuthSecrets(plain, (secret) => box.encrypt(secret));
}

export function sealCaptcha(plain: CaptchaSettings | null, box: Sealer): CaptchaSettings | null {
  return plain === null ? null : { ...plain, secret: box.encrypt(plain.secret) };
}

/**
 * The response form: `{ set: true }` per secret, plus `last4` for long machine secrets (the
 * lib's rule, computed on the plaintext so a user can tell the rotation slots apart). A secret
 * that cannot be opened (its key was removed from SECRETS_KEYS) still shows as set, without hint.
 */
export function redactedInboundAuth(sealed: InboundAuthSetting, box: Sealer): RedactedInboundAuth {
  const open = openerOf(box);
  return redactInboundAuth(
    mapInboundAuthSecrets(sealed, (s) => {
      try {
        return open(s);
      } catch {
        return '';
      }
    }),
  );
}

export type RedactedCaptcha = Omit<CaptchaSettings, 'secret'> & { secret: RedactedSecret };

/** The captcha has a single secret, so no hint is needed to tell slots apart. */
export function redactedCaptcha(sealed: CaptchaSettings | null): RedactedCaptcha | null {
  return sealed === null ? null : { ...sealed, secret: { set: true } };
}
