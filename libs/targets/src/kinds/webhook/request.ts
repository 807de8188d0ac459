import type { DeliveryMessageV1 } from '@relay/contracts';
import type { ClientTls, OutboundRequest } from '../../kind';
import { ownerOf } from '../../transports/pool';
import { TargetConfigError } from './config';
import type { SecretSealer, WebhookAuth, WebhookConfig, WebhookTls } from './config';
import { headerValueProblem, isHeaderValue, isNeverForwarded } from './headers';
import { standardWebhookHeaders } from './signing';
import { renderTemplate, templateValues } from './template';

export interface RequestDeps {
  secrets: SecretSealer;
  /** a fresh v4 UUID for {{uuid}} */
  uuid(): string;
  now(): Date;
}

export const USER_AGENT = 'Relay-Webhook/1';

/** Rule 4 and Relay's namespace always apply; the mode picks among what is left. */
function forwarded(config: WebhookConfig, incoming: Record<string, string>): Record<string, string> {
  const mode = config.forward_headers;
  if (mode.mode === 'none') return {};
  const out: Record<string, string> = {};
  // a listed header absent from the request is skipped (spec "Relay target")
  const names = mode.mode === 'all' ? Object.keys(incoming) : mode.names.filter((n) => n in incoming);
  for (const raw of names) {
    const name = raw.toLowerCase();
    const value = incoming[raw];
    if (value === undefined || isNeverForwarded(name) || !isHeaderValue(value)) continue;
    out[name] = value;
  }
  return out;
}

/** Spec "Authentication" → Outbound: the header each auth type adds. */
function authHeader(auth: WebhookAuth, open: (sealed: string) => string): Record<string, string> {
  switch (auth.type) {
    case 'bearer':
      return { authorization: `Bearer ${open(auth.token)}` };
    case 'basic':
      return {
        authorization: `Basic ${Buffer.from(`${auth.username}:${open(auth.password)}`, 'utf8').toString('base64')}`,
      };
    case 'api_key':
      return { [auth.header.toLowerCase()]: open(auth.key) };
    case 'none':
      return {};
  }
}

/**
 * The request for one attempt (spec "Forwarded request (outbound)"). Later layers win:
 * forwarded headers < custom headers (rule 2) < the auth header (rule 1) < Relay's own
 * Content-Type, tracking and signature headers. Rule 5's endpoint-specific names (required
 * headers, inbound API key / HMAC / chat-HMAC timestamp headers) never reach `request.headers`:
 * the gateway strips them before publishing. Throws TargetConfigError when the stored config
 * cannot be used (non-HTTPS URL under Enforce HTTPS; a secret that no configured key opens; a
 * header value Node would refuse).
 */
export function buildWebhookRequest(config: WebhookConfig, d: DeliveryMessageV1, deps: RequestDeps): OutboundRequest {
  if (config.enforce_https && !config.url.startsWith('https:')) {
    throw new TargetConfigError('HTTPS_REQUIRED', 'target URL is not HTTPS while Enforce HTTPS is on');
  }
  const open = (sealed: string): string => {
    try {
      return deps.secrets.decrypt(sealed);
    } catch (err) {
      throw new TargetConfigError(
        'SECRET_UNREADABLE',
        `a stored target secret cannot be decrypted: ${(err as Error).message}`,
      );
    }
  };
  const values = templateValues(d, deps.uuid());
  const custom: Record<string, string> = {};
  for (const h of config.custom_headers) {
    custom[h.name.toLowerCase()] = renderTemplate(h.sensitive ? open(h.value) : h.value, values);
  }
  // Format None: empty body and no Content-Type (spec "Payload format rules")
  const body = d.payload.content_type === null ? Buffer.alloc(0) : Buffer.from(d.payload.body_base64, 'base64');
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    ...forwarded(config, d.request.headers),
    ...custom,
    ...authHeader(config.auth, open),
    ...(d.payload.content_type === null ? {} : { 'content-type': d.payload.content_type }),
    // spec "Events": one event id for every target and attempt; one delivery id per event × target
    'x-relay-event-id': d.event_id,
    'x-relay-delivery-id': d.delivery_id,
    'x-relay-attempt': String(d.attempt),
  };
  if (config.signing)
    Object.assign(headers, standardWebhookHeaders(open(config.signing.secret), d.delivery_id, deps.now(), body));
  refuseUnsendable(headers);
  const request: OutboundRequest = { url: config.url, headers, body };
  if (config.tls) request.tls = clientTls(config.tls, d, open);
  return request;
}

/** The target's mutual TLS settings as the sender uses them, the key opened. */
function clientTls(tls: WebhookTls, d: DeliveryMessageV1, open: (sealed: string) => string): ClientTls {
  const out: ClientTls = { owner: ownerOf(d) };
  if (tls.client_certificate_pem !== undefined && tls.client_key_pem !== undefined) {
    out.cert = tls.client_certificate_pem;
    out.key = open(tls.client_key_pem);
  }
  if (tls.ca_pem !== undefined) out.ca = tls.ca_pem;
  return out;
}

/**
 * A target saved before header values were checked may hold a character
 * Node's client refuses; it would fail every attempt as a network error, retried for hours.
 * Refused here instead: a permanent failure that flags the target. Names the header and the
 * character, never the value (it may be a credential).
 */
function refuseUnsendable(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    const problem = headerValueProblem(value);
    if (problem)
      throw new TargetConfigError('HEADER_INVALID', `the ${name} header ${problem}; save the target's settings again`);
  }
}
