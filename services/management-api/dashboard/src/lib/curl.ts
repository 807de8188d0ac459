/**
 * The ready-to-run curl line shown beside an endpoint's ingest URL: a request the endpoint
 * accepts as configured (method, payload format, required headers), with placeholders where
 * only the sender knows the value (credentials are never readable, so never shown).
 */
export interface CurlEndpoint {
  ingest_url: string;
  methods: string[];
  payload_format: string;
  query_param_name: string | null;
  inbound_auth: { type: string; header?: string; credentials?: Array<{ username?: string }> };
  required_headers: Array<{ name: string; value?: string | null }>;
}

const SAMPLE = { hello: 'relay' };

/** POSIX shell single-quoting: the text comes back byte for byte. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  bytes.forEach((b) => (bin += String.fromCharCode(b)));
  return btoa(bin);
}

const BODIES: Record<string, { type: string; body: string } | undefined> = {
  json: { type: 'application/json', body: JSON.stringify(SAMPLE) },
  form: { type: 'application/x-www-form-urlencoded', body: 'hello=relay' },
  xml: { type: 'application/xml', body: '<hello>relay</hello>' },
  text: { type: 'text/plain', body: 'hello relay' },
};

/** The sample request the curl line sends: what a signed example signs, byte for byte. */
export interface ExampleRequest {
  method: string;
  url: string;
  /** absent for the bodyless formats */
  body?: { type: string; body: string };
}

export function exampleRequest(ep: CurlEndpoint): ExampleRequest {
  const format = ep.payload_format;
  const bodyless = format === 'none' || format === 'query' || format === 'query_base64_json';
  // a body format is sent with POST when allowed; query formats prefer GET
  const preferred = bodyless && format !== 'none' ? ['GET', 'POST'] : ['POST', 'PUT', 'PATCH'];
  const method = preferred.find((m) => ep.methods.includes(m)) ?? ep.methods[0] ?? 'POST';
  let url = ep.ingest_url;
  if (format === 'query') url += '?hello=relay';
  if (format === 'query_base64_json')
    url += `?${encodeURIComponent(ep.query_param_name ?? 'payload')}=${encodeURIComponent(base64(JSON.stringify(SAMPLE)))}`;
  const body = bodyless ? undefined : BODIES[format];
  return body ? { method, url, body } : { method, url };
}

/**
 * The line; `signed` replaces the credential placeholders with a computed signature's headers
 * (lib/signed-example.ts), for the same sample request.
 */
export function curlLine(ep: CurlEndpoint, signed?: ReadonlyArray<readonly [string, string]>): string {
  const { method, url, body } = exampleRequest(ep);
  const parts = ['curl', '-i', '-X', method, shellQuote(url)];
  const header = (name: string, value: string): void => {
    parts.push('-H', shellQuote(`${name}: ${value}`));
  };
  const auth = ep.inbound_auth;
  if (auth.type === 'BEARER') header('authorization', 'Bearer <token>');
  if (auth.type === 'API_KEY') header(auth.header ?? 'x-api-key', '<api key>');
  if (auth.type === 'BASIC')
    parts.push('-u', shellQuote(`${auth.credentials?.[0]?.username ?? '<username>'}:<password>`));
  for (const [name, value] of signed ?? []) header(name, value);
  for (const h of ep.required_headers) header(h.name, h.value ?? '<value>');
  if (body) {
    header('content-type', body.type);
    parts.push('--data-raw', shellQuote(body.body));
  }
  return parts.join(' ');
}

/** What the line cannot do for the sender, said next to it. */
export function curlNote(ep: CurlEndpoint): string | null {
  switch (ep.inbound_auth.type) {
    case 'BEARER':
      return 'Replace <token> with one of the endpoint’s bearer tokens.';
    case 'API_KEY':
      return 'Replace <api key> with one of the endpoint’s keys.';
    case 'BASIC':
      return 'Replace <password> with the credential’s password.';
    case 'HMAC':
      return 'This endpoint checks an HMAC signature: the sender must sign the body (docs/inbound-auth.md).';
    default:
      return null;
  }
}
