import type { WebhookAuth, WebhookConfig } from './config';

/** How a sealed value appears to API callers: never the value, never the ciphertext. */
export const REDACTED = '[redacted]';

function publicAuth(auth: WebhookAuth): Record<string, unknown> {
  switch (auth.type) {
    case 'bearer':
      return { type: 'bearer', token: REDACTED };
    case 'api_key':
      return { type: 'api_key', header: auth.header, key: REDACTED };
    case 'basic':
      return { type: 'basic', username: auth.username, password: REDACTED };
    case 'none':
      return { type: 'none' };
  }
}

/** The config as the management API shows it: secrets and sensitive header values redacted. */
export function publicWebhookConfig(c: WebhookConfig): Record<string, unknown> {
  return {
    url: c.url,
    enforce_https: c.enforce_https,
    auth: publicAuth(c.auth),
    custom_headers: c.custom_headers.map((h) => ({ name: h.name, value: h.sensitive ? REDACTED : h.value, sensitive: h.sensitive })),
    forward_headers: c.forward_headers.mode === 'list' ? { mode: 'list', names: [...c.forward_headers.names] } : { mode: c.forward_headers.mode },
    signing: c.signing ? { standard_webhooks: true, secret: REDACTED } : null,
  };
}
