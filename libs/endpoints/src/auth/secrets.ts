import type { InboundAuthSetting, RedactedInboundAuth, RedactedSecret } from './types';

/** Path of a secret inside the setting, e.g. `tokens[1]` or `credentials[0].password`. */
type SecretPath = string;

/**
 * Returns a copy of the setting with every secret passed through `fn`: the one place that
 * knows which values are secrets. The management API uses it to encrypt secrets before they
 * are stored and decrypt them when loaded; `redactInboundAuth` uses it for API responses.
 * Usernames, header names and custom-scheme options are not secrets and pass unchanged.
 */
export function mapInboundAuthSecrets<A, B>(
  setting: InboundAuthSetting<A>,
  fn: (secret: A, path: SecretPath) => B,
): InboundAuthSetting<B> {
  switch (setting.type) {
    case 'NONE':
      return { ...setting };
    case 'BASIC':
      return {
        ...setting,
        credentials: setting.credentials.map((c, i) => ({
          ...c,
          password: fn(c.password, `credentials[${i}].password`),
        })),
      };
    case 'BEARER':
      return { ...setting, tokens: setting.tokens.map((t, i) => fn(t, `tokens[${i}]`)) };
    case 'API_KEY':
      return { ...setting, keys: setting.keys.map((k, i) => fn(k, `keys[${i}]`)) };
    case 'HMAC': {
      const secrets = setting.secrets.map((s, i) => fn(s, `secrets[${i}]`));
      if (setting.preset === 'custom') return { ...setting, secrets, custom: { ...setting.custom } };
      const { verify_token: verifyToken, ...rest } = setting;
      return verifyToken === undefined
        ? { ...rest, secrets }
        : { ...rest, secrets, verify_token: fn(verifyToken, 'verify_token') };
    }
  }
}

/** Paths of the secret values in this setting (see `mapInboundAuthSecrets`). */
export function secretPaths<S>(setting: InboundAuthSetting<S>): SecretPath[] {
  const paths: SecretPath[] = [];
  mapInboundAuthSecrets(setting, (_secret, path) => paths.push(path));
  return paths;
}

/** Below this length a suffix is too large a share of the secret to show. */
const MIN_LENGTH_FOR_HINT = 16;

/**
 * A copy safe for API responses: each secret becomes `{ set: true }`, plus its last four
 * characters for long machine-generated secrets so a user can tell the two rotation slots
 * apart. Passwords never get a hint (people reuse them).
 */
export function redactInboundAuth(setting: InboundAuthSetting): RedactedInboundAuth {
  return mapInboundAuthSecrets(setting, (secret, path): RedactedSecret => {
    if (path.endsWith('.password') || secret.length < MIN_LENGTH_FOR_HINT) return { set: true };
    return { set: true, last4: secret.slice(-4) };
  });
}
