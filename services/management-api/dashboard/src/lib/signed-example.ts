import { PRESET_SPECS } from '../../../../../libs/endpoints/src/auth/presets/catalog';
import type { HmacPresetName } from '../../../../../libs/endpoints/src/auth/presets/catalog';
import type {
  HmacScheme,
  MacKeyForm,
  PresetSpec,
  SignedPart,
} from '../../../../../libs/endpoints/src/auth/presets/spec';
import { curlLine, exampleRequest } from './curl';
import type { CurlEndpoint } from './curl';

/**
 * A signed example for an HMAC-preset endpoint — the curl line with a signature
 * computed here, in the browser, for the sample body and the current time, from a secret the
 * user types. The secret never leaves the page (no request carries it; token presets show it in
 * the line, since the token is the credential). Read from the same preset description the
 * gateway verifies with; WebCrypto has no MD5 and no key to sign Ed25519/ECDSA/RSA presets with,
 * so those presets get no example.
 */
export type SignedEndpoint = CurlEndpoint & { inbound_auth: CurlEndpoint['inbound_auth'] & { preset?: string } };

function specOf(ep: SignedEndpoint): PresetSpec | undefined {
  const preset = ep.inbound_auth.preset;
  return ep.inbound_auth.type === 'HMAC' && preset !== undefined && preset in PRESET_SPECS
    ? PRESET_SPECS[preset as HmacPresetName]
    : undefined;
}

/** Whether the page can offer a signed example for this endpoint. */
export function canSignExample(ep: SignedEndpoint): boolean {
  const spec = specOf(ep);
  if (spec === undefined || spec.signature === undefined) return false;
  if (spec.scheme.family === 'token') return true;
  return spec.scheme.family === 'hmac' && spec.scheme.algorithm !== 'md5';
}

const WEBCRYPTO_HASH = { sha1: 'SHA-1', sha256: 'SHA-256', sha512: 'SHA-512' } as const;

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function keyBytes(secret: string, form: MacKeyForm): Uint8Array {
  if (form === 'whsec') return fromBase64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (form === 'base64') return fromBase64(secret);
  if (form === 'hex') return Uint8Array.from(secret.match(/../g) ?? [], (h) => parseInt(h, 16));
  return new TextEncoder().encode(secret);
}

function encode(bytes: Uint8Array, encoding: HmacScheme['encoding']): string {
  if (encoding === 'hex') return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  const b64 = btoa(String.fromCharCode(...bytes));
  return encoding === 'base64' ? b64 : b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function timestampText(spec: PresetSpec, now: Date): string {
  const unit = spec.timestamp?.unit ?? 'seconds';
  if (unit === 'milliseconds') return String(now.getTime());
  if (unit === 'iso8601') return now.toISOString();
  return String(Math.floor(now.getTime() / 1000));
}

/** The signature headers for the sample request, or null when this endpoint gets no example. */
export async function signatureHeaders(
  ep: SignedEndpoint,
  secret: string,
  now: Date,
): Promise<Array<[string, string]> | null> {
  const spec = specOf(ep);
  if (spec === undefined || spec.signature === undefined || !canSignExample(ep)) return null;
  const { header, format } = spec.signature;
  if (spec.scheme.family === 'token') return [[header, secret]];
  const scheme = spec.scheme as HmacScheme;
  const request = exampleRequest(ep);
  const timestamp = timestampText(spec, now);
  const id = `example-${crypto.randomUUID()}`;
  const text = (part: SignedPart): string => {
    if (typeof part !== 'string') return part.text;
    return { body: request.body?.body ?? '', timestamp, id, url: request.url, method: request.method }[part];
  };
  const key = await crypto.subtle.importKey(
    'raw',
    new Uint8Array(keyBytes(secret, scheme.key)),
    { name: 'HMAC', hash: WEBCRYPTO_HASH[scheme.algorithm as keyof typeof WEBCRYPTO_HASH] },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(scheme.signed.map(text).join(''))),
  );
  const signature = encode(mac, scheme.encoding);

  let value: string;
  if (format.kind === 'plain') value = (format.prefix ?? '') + signature;
  else if (format.kind === 'list') value = format.prefix + signature;
  else if (format.kind === 'pairs')
    value =
      (format.timestampKey !== undefined ? `${format.timestampKey}=${timestamp}${format.separator}` : '') +
      `${format.signatureKey}=${signature}`;
  else value = `${timestamp}${format.separator}${signature}`;

  const headers: Array<[string, string]> = [[header, value]];
  if (spec.timestamp?.header !== undefined) headers.push([spec.timestamp.header, timestamp]);
  // A fresh delivery id each time, so a second example is not answered as the first one's retry.
  if (spec.id !== undefined && 'header' in spec.id) headers.push([spec.id.header, id]);
  return headers;
}

/** The curl line with the computed signature, or null when this endpoint gets no example. */
export async function signedCurlLine(ep: SignedEndpoint, secret: string, now: Date): Promise<string | null> {
  const headers = await signatureHeaders(ep, secret, now);
  return headers === null ? null : curlLine(ep, headers);
}
