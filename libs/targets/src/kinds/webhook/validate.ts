import type { FieldError, Validation } from '@relay/contracts';
import { MAX_URL } from './config';
import type { SecretSealer, WebhookAuth, WebhookConfig } from './config';
import { hasControlChars, headerValueProblem, reservedReason } from './headers';
import { signingKey } from './signing';
import { customHeaders, forwardHeaders, headerName } from './validate-headers';
import type { Fail } from './validate-headers';

const SETTINGS = ['url', 'enforce_https', 'auth', 'custom_headers', 'forward_headers', 'signing'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Spec "Outbound": with Enforce HTTPS on, a non-HTTPS target URL is rejected. */
export function urlProblem(raw: unknown, enforceHttps: boolean): string | null {
  if (typeof raw !== 'string' || raw === '') return 'url is required';
  if (raw.length > MAX_URL) return `url is longer than ${MAX_URL} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must use http or https';
  if (enforceHttps && url.protocol !== 'https:') return 'url must use https while Enforce HTTPS is on';
  if (url.username || url.password) return 'url may not carry credentials; use outbound authentication instead';
  // got 11 reads http://unix:/path:/ as a local socket; the SSRF guard refuses it too
  if (url.hostname === 'unix') return 'url host "unix" is not allowed';
  return null;
}

const secretString = (v: unknown, max = 4096): v is string => typeof v === 'string' && v !== '' && v.length <= max;

function auth(raw: unknown, fail: Fail): { auth: WebhookAuth; header: string | null } {
  const none = { auth: { type: 'none' } as WebhookAuth, header: null };
  if (raw === undefined) return none;
  if (!isObject(raw)) return fail('auth', 'must be an object with a type'), none;
  switch (raw.type) {
    case 'none':
      return none;
    case 'bearer':
      if (!secretString(raw.token)) fail('auth.token', 'token is required');
      else if (headerValueProblem(raw.token)) fail('auth.token', `token ${headerValueProblem(raw.token)}`);
      else if (/\s/.test(raw.token)) fail('auth.token', 'token may not contain whitespace (it follows "Bearer " in the Authorization header)');
      return { auth: { type: 'bearer', token: String(raw.token ?? '') }, header: 'authorization' };
    case 'basic':
      if (!secretString(raw.username, 256) || raw.username.includes(':')) fail('auth.username', 'username is required and may not contain ":"');
      if (!secretString(raw.password)) fail('auth.password', 'password is required');
      // Basic credentials travel base64-encoded (UTF-8), so any character but a control one is sendable
      for (const f of ['username', 'password'] as const) if (typeof raw[f] === 'string' && hasControlChars(raw[f] as string)) fail(`auth.${f}`, 'may not contain control characters');
      return { auth: { type: 'basic', username: String(raw.username ?? ''), password: String(raw.password ?? '') }, header: 'authorization' };
    case 'api_key': {
      const header = headerName(raw.header, 'auth.header', fail);
      const reserved = header === null ? null : reservedReason(header, false);
      if (reserved) fail('auth.header', reserved);
      if (!secretString(raw.key)) fail('auth.key', 'key is required');
      else if (headerValueProblem(raw.key)) fail('auth.key', `key ${headerValueProblem(raw.key)}`);
      return { auth: { type: 'api_key', header: String(raw.header ?? ''), key: String(raw.key ?? '') }, header };
    }
    default:
      return fail('auth.type', 'must be "none", "bearer", "api_key" or "basic"'), none;
  }
}

function signing(raw: unknown, fail: Fail): string | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw) || raw.standard_webhooks !== true) return fail('signing.standard_webhooks', 'must be true (or omit signing)'), null;
  if (typeof raw.secret !== 'string' || !signingKey(raw.secret)) return fail('signing.secret', 'must be a Standard Webhooks secret: "whsec_" + base64 of 24–64 bytes'), null;
  return raw.secret;
}

/**
 * Save-time validation (spec "Relay target" → Webhook URL). Reports every problem, each naming
 * its field (`config.custom_headers[3].name`); on success returns the config to store, with
 * every secret sealed by `secrets`.
 */
export function validateWebhookConfig(input: unknown, secrets: SecretSealer): Validation<WebhookConfig> {
  const errors: FieldError[] = [];
  const fail: Fail = (field, message) => void errors.push({ field: `config.${field}`, message });
  if (!isObject(input)) return { ok: false, errors: [{ field: 'config', message: 'must be an object' }] };
  for (const key of Object.keys(input)) if (!SETTINGS.includes(key)) fail(key, 'unknown setting');

  const enforceHttps = input.enforce_https ?? true;
  if (typeof enforceHttps !== 'boolean') fail('enforce_https', 'must be true or false');
  const urlError = urlProblem(input.url, enforceHttps !== false);
  if (urlError) fail('url', urlError);
  const outbound = auth(input.auth, fail);
  const signingSecret = signing(input.signing, fail);
  const custom = customHeaders(input.custom_headers, outbound.header, signingSecret !== null, fail);
  const forward = forwardHeaders(input.forward_headers, fail);
  if (errors.length) return { ok: false, errors };

  const a = outbound.auth;
  const sealedAuth: WebhookAuth =
    a.type === 'bearer' ? { type: 'bearer', token: secrets.encrypt(a.token) }
    : a.type === 'api_key' ? { type: 'api_key', header: a.header, key: secrets.encrypt(a.key) }
    : a.type === 'basic' ? { type: 'basic', username: a.username, password: secrets.encrypt(a.password) }
    : { type: 'none' };
  return {
    ok: true,
    value: {
      url: input.url as string,
      enforce_https: enforceHttps as boolean,
      auth: sealedAuth,
      custom_headers: custom.map((h) => ({ name: h.name, value: h.sensitive ? secrets.encrypt(h.value) : h.value, sensitive: h.sensitive })),
      forward_headers: forward,
      signing: signingSecret === null ? null : { standard_webhooks: true, secret: secrets.encrypt(signingSecret) },
    },
  };
}
