import { mapInboundAuthSecrets } from '@relay/endpoints';
import type { FieldError } from '@relay/contracts';
import type { CaptchaSettings, InboundAuthSetting } from '@relay/endpoints';

/**
 * Secrets are never shown again after saving, so an update names a stored secret it keeps with
 * a placeholder instead of resending it: `{ "keep": <slot> }`, where the slot is the secret's
 * position in the stored setting *before* the update (as listed in the redacted response).
 * This is what makes the spec's rotation order workable ("Authentication / Outbound", last line):
 *
 *   add:    "tokens": [{ "keep": 0 }, "<new token>"]   → old and new accepted
 *   remove: "tokens": [{ "keep": 1 }]                   → only the new one
 *
 * A kept secret is opened and validated again with the rest of the setting (so a kept and a new
 * secret that are equal are refused as duplicates), then sealed afresh with the primary key.
 */
export interface StoredSecrets {
  inbound_auth: InboundAuthSetting;
  captcha: CaptchaSettings | null;
  /** Opens a stored (sealed) secret; throws when it cannot. */
  open(sealed: string): string;
}

export interface Resolved {
  value: unknown;
  errors: FieldError[];
}

/** The property of each inbound auth type that lists its secrets (BASIC: `credentials[].password`). */
const SECRET_LISTS: Readonly<Record<string, string>> = {
  BASIC: 'credentials',
  BEARER: 'tokens',
  API_KEY: 'keys',
  HMAC: 'secrets',
};

const KEEP_SHAPE = 'must be a secret, or { "keep": <slot number> } to keep a stored one';
const REDACTED_ECHO =
  'is a redacted value from a response: send the secret, or { "keep": <slot number> } to keep the stored one';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The slot a placeholder names; `null` when `v` is no placeholder, `'malformed'` for a bad one. */
function keepSlot(v: unknown): number | 'malformed' | null {
  if (!isRecord(v) || !('keep' in v)) return null;
  const slot = v.keep;
  return Object.keys(v).length === 1 && typeof slot === 'number' && Number.isInteger(slot) && slot >= 0
    ? slot
    : 'malformed';
}

/** Why a placeholder cannot be resolved, or `null` when slot `slot` of `stored` exists. */
function keepProblem(slot: number | 'malformed', stored: string[] | null, what: string): string | null {
  if (slot === 'malformed') return KEEP_SHAPE;
  if (stored === null) return `there is no stored ${what} secret to keep; send the secret itself`;
  if (slot >= stored.length)
    return `keeps slot ${slot}, but the stored setting has ${stored.length === 1 ? 'only slot 0' : `slots 0–${stored.length - 1}`}`;
  return null;
}

/** Resolves one value: a placeholder becomes the stored plaintext; anything else passes unchanged. */
function resolveValue(
  v: unknown,
  field: string,
  stored: string[] | null,
  what: string,
  open: (s: string) => string,
  errors: FieldError[],
): unknown {
  const slot = keepSlot(v);
  if (slot === null) {
    if (isRecord(v) && v.set === true) errors.push({ field, message: REDACTED_ECHO });
    return v;
  }
  const problem = keepProblem(slot, stored, what);
  if (problem !== null) {
    errors.push({ field, message: problem });
    return v;
  }
  try {
    return open(stored![slot as number]!);
  } catch {
    errors.push({
      field,
      message: 'the stored secret cannot be decrypted with the configured keys (SECRETS_KEYS); send it again',
    });
    return v;
  }
}

/** Replaces `{ "keep": n }` placeholders in an inbound auth input; the stored setting must have the same `type`. */
export function resolveInboundAuthKeeps(input: unknown, stored: StoredSecrets | null, at = 'inbound_auth'): Resolved {
  if (!isRecord(input) || typeof input.type !== 'string') return { value: input, errors: [] };
  const type = input.type;
  const listName = SECRET_LISTS[type];
  const list = listName === undefined ? undefined : input[listName];
  if (listName === undefined || !Array.isArray(list)) return { value: input, errors: [] };
  const base = `${at}.${type.toLowerCase()}.${listName}`;
  let slots: string[] | null = null;
  if (stored && stored.inbound_auth.type === type) {
    slots = [];
    mapInboundAuthSecrets(stored.inbound_auth, (s) => slots!.push(s));
  }
  const open = stored ? stored.open : () => '';
  const errors: FieldError[] = [];
  const resolved = list.map((item: unknown, i: number) => {
    if (type !== 'BASIC') return resolveValue(item, `${base}[${i}]`, slots, type, open, errors);
    if (!isRecord(item)) return item;
    return { ...item, password: resolveValue(item.password, `${base}[${i}].password`, slots, type, open, errors) };
  });
  return { value: { ...input, [listName]: resolved }, errors };
}

/** Replaces `"secret": { "keep": 0 }` in a captcha input; only while the provider stays the same. */
export function resolveCaptchaKeep(input: unknown, stored: StoredSecrets | null, at = 'captcha'): Resolved {
  if (!isRecord(input)) return { value: input, errors: [] };
  const field = `${at}.secret`;
  const slot = keepSlot(input.secret);
  const errors: FieldError[] = [];
  if (typeof slot === 'number' && stored?.captcha && stored.captcha.provider !== input.provider) {
    return {
      value: input,
      errors: [
        { field, message: 'can be kept only while the provider stays the same (a secret belongs to one provider)' },
      ],
    };
  }
  if (typeof slot === 'number' && slot !== 0)
    return { value: input, errors: [{ field, message: 'the captcha has one secret: { "keep": 0 }' }] };
  const captcha = stored?.captcha ?? null;
  const open = stored ? stored.open : () => '';
  const secret = resolveValue(input.secret, field, captcha ? [captcha.secret] : null, 'captcha', open, errors);
  return { value: { ...input, secret }, errors };
}
