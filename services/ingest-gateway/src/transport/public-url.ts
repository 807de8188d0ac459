import type { Request } from 'express';

/**
 * The URL as the sender used it, which Twilio and Square sign (and custom `{{url}}` templates
 * may). With PUBLIC_BASE_URL set — the same value the management API builds ingest URLs from —
 * it is that base plus the path and query as received; a proxy in front may rewrite the
 * scheme, host and port freely. Without it, the scheme and host come from the request, and
 * X-Forwarded-Proto / X-Forwarded-Host count only from the proxies TRUST_PROXY_HOPS trusts
 * (express's `trust proxy`), so a sender cannot choose the URL its signature is checked against.
 */
export function publicUrlOf(req: Request, publicBaseUrl: string | null): string {
  if (publicBaseUrl) return `${publicBaseUrl.replace(/\/+$/, '')}${req.originalUrl}`;
  return `${req.protocol}://${req.host}${req.originalUrl}`;
}
