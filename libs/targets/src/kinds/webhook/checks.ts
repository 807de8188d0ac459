import type { CheckContext } from '../../describe/field';
import { MAX_HEADER_NAME, MAX_URL } from './config';
import {
  hasControlChars,
  headerValueProblem,
  isCredentialLike,
  isHeaderName,
  isNeverForwarded,
  reservedReason,
} from './headers';
import { signingKey } from './signing';
import { TEMPLATE_VARIABLES, unknownVariables } from './template';

/*
 * The webhook kind's rules that cannot be data (description.ts hangs them on their fields):
 * URL forms, the header rules of docs/targets-webhook.md, template variables, the signing secret.
 */

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

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

export function checkUrl(value: string, ctx: CheckContext): void {
  const problem = urlProblem(value, ctx.config.enforce_https !== false);
  if (problem) ctx.fail(problem);
}

/** The lower-cased outbound authentication header, which header rule 3 keeps from custom headers. */
function authHeaderOf(auth: unknown): string | null {
  if (!isObject(auth)) return null;
  if (auth.type === 'bearer' || auth.type === 'basic') return 'authorization';
  return auth.type === 'api_key' && typeof auth.header === 'string' ? auth.header.toLowerCase() : null;
}

/** `signing` as sent switches the signature headers on (header rule 4 then reserves them). */
const signs = (config: Readonly<Raw>): boolean => isObject(config.signing);

export function checkAuthHeader(value: string, ctx: CheckContext): void {
  if (value.length > MAX_HEADER_NAME || !isHeaderName(value))
    return ctx.fail(`"${value.slice(0, 40)}" is not a valid header name`);
  const reserved = reservedReason(value.toLowerCase(), false);
  if (reserved) ctx.fail(reserved);
}

/** A bearer token or API key: sendable in a header value; a bearer token follows "Bearer ". */
export const checkHeaderSecret =
  (label: string, noWhitespace: boolean) =>
  (value: string, ctx: CheckContext): void => {
    const problem = headerValueProblem(value);
    if (problem) ctx.fail(`${label} ${problem}`);
    else if (noWhitespace && /\s/.test(value))
      ctx.fail(`${label} may not contain whitespace (it follows "Bearer " in the Authorization header)`);
  };

/** Basic credentials travel base64-encoded (UTF-8), so any character but a control one is sendable. */
export function checkBasicPart(value: string, ctx: CheckContext): void {
  if (hasControlChars(value)) ctx.fail('may not contain control characters');
}

export function checkHeaderValue(value: string, ctx: CheckContext): void {
  const problem = headerValueProblem(value);
  if (problem) ctx.fail(`header value ${problem}`);
  const unknown = unknownVariables(value);
  if (unknown.length)
    ctx.fail(
      `unknown template variable(s) ${unknown.map((u) => `{{${u}}}`).join(', ')}; known: ${TEMPLATE_VARIABLES.join(', ')}`,
    );
}

/**
 * A custom header's name across the rest of the config: header rules 3 and 4 and no duplicates
 * (compared case-insensitively). Its place in the list comes from its path.
 */
export function checkCustomHeaderName(value: string, ctx: CheckContext): void {
  if (value.length > MAX_HEADER_NAME || !isHeaderName(value))
    return ctx.fail(`"${value.slice(0, 40)}" is not a valid header name`);
  const name = value.toLowerCase();
  const index = Number(/\[(\d+)\]\.name$/.exec(ctx.path)?.[1] ?? 0);
  const earlier = (ctx.config.custom_headers as unknown[]).slice(0, index);
  const reserved = reservedReason(name, signs(ctx.config));
  if (reserved) ctx.fail(reserved);
  else if (name === authHeaderOf(ctx.config.auth))
    ctx.fail(`${name} is the outbound authentication header and cannot also be a custom header (header rule 3)`);
  else if (earlier.some((h) => isObject(h) && typeof h.name === 'string' && h.name.toLowerCase() === name))
    ctx.fail(`duplicate custom header ${name}`);
}

/** A credential-like header is always sensitive; `sensitive: false` cannot unmark it (spec "Relay target"). */
export function markSensitive(header: { name: string; value: string; sensitive?: boolean }): unknown {
  return {
    name: header.name,
    value: header.value,
    sensitive: header.sensitive === true || isCredentialLike(header.name.toLowerCase(), header.value),
  };
}

/** A forwarded header name, lower-cased; header rule 4 names those never forwarded. */
export function checkForwardName(value: string, ctx: CheckContext): unknown {
  if (value.length > MAX_HEADER_NAME || !isHeaderName(value))
    return ctx.fail(`"${value.slice(0, 40)}" is not a valid header name`);
  const name = value.toLowerCase();
  if (isNeverForwarded(name))
    ctx.fail(`${name} is never forwarded (header rule 4 and Relay's hop headers, docs/targets-webhook.md)`);
  return name;
}

export const dedupe = (names: string[]): string[] => [...new Set(names)];

export function checkSigningSecret(value: string, ctx: CheckContext): void {
  if (!signingKey(value)) ctx.fail('must be a Standard Webhooks secret: "whsec_" + base64 of 24–64 bytes');
}
