import { cacheVars, commonVars, int, list, mongoVars, rabbitVars, redisVars, ssrfVars, str, url } from '@relay/config';
import type { ConfigOf } from '@relay/config';

export const configSpec = {
  ...commonVars,
  ...rabbitVars,
  ...redisVars,
  ...mongoVars,
  ...cacheVars,
  port: int('PORT', 'HTTP port of the ingest gateway', { default: 8080, min: 0, max: 65535 }),
  host: str('HOST', 'address the gateway listens on (ingest and health ports)', { default: '0.0.0.0' }),
  // 8090: next to the deliverers' 8091/8092 and the writer's 8093
  healthPort: int('HEALTH_PORT', 'HTTP port serving /healthz, /readyz and /metrics (never the public ingest port)', {
    default: 8090,
    min: 0,
    max: 65535,
  }),
  publishConfirmTimeoutMs: int(
    'PUBLISH_CONFIRM_TIMEOUT_MS',
    'how long a request waits for the broker confirm before answering 503 delivery_queue_unavailable',
    { default: 1000, min: 50 },
  ),
  headersTimeoutMs: int(
    'HEADERS_TIMEOUT_MS',
    'time a sender has to send the request line and headers; then 408 and the connection is closed',
    { default: 10000, min: 1000 },
  ),
  bodyTimeoutMs: int(
    'BODY_TIMEOUT_MS',
    'time a sender has to send the whole body once the gateway reads it; then 408 request_timeout with an activity row',
    { default: 15000, min: 1000 },
  ),
  endpointCacheMax: int(
    'ENDPOINT_CACHE_MAX',
    'endpoints kept in memory (least recently used dropped first); unknown ids are remembered in a second cache of this size',
    { default: 10000, min: 1 },
  ),
  endpointStaleIfErrorMs: int(
    'ENDPOINT_STALE_IF_ERROR_MS',
    'while change announcements are not heard and the store cannot be read, how long since its last read a cached endpoint is still served (then 503)',
    { default: 600000, min: 0 },
  ),
  endpointLoadTimeoutMs: int(
    'ENDPOINT_LOAD_TIMEOUT_MS',
    'a store read of an endpoint slower than this counts as failed (stale copy or 503)',
    { default: 2000, min: 50 },
  ),
  maxBodyBytes: int(
    'MAX_BODY_BYTES',
    'hard ceiling on request bodies read by the gateway, above every plan payload limit',
    { default: 1048576, min: 1024 },
  ),
  spoolDrainIntervalMs: int(
    'SPOOL_DRAIN_INTERVAL_MS',
    'how often activity rows spooled in Redis during a broker outage are re-published',
    { default: 1000, min: 50 },
  ),
  trustProxyHops: int(
    'TRUST_PROXY_HOPS',
    'number of reverse proxies in front of the gateway whose X-Forwarded-For/-Proto/-Host are trusted for the source IP and public URL',
    { default: 0, min: 0 },
  ),
  deliveryLimit: int(
    'BROKER_DELIVERY_LIMIT',
    'redeliveries of one message before the broker dead-letters it (quorum x-delivery-limit)',
    { default: 20, min: 1 },
  ),
  secretsKeys: str(
    'SECRETS_KEYS',
    'keys that open endpoint secrets (inbound auth, captcha), "keyid:base64(32 bytes)" comma-separated (the same value as the management API)',
    { secret: true },
  ),
  publicBaseUrl: url(
    'PUBLIC_BASE_URL',
    "base URL senders use (the management API's value); Twilio and Square signatures are checked against it. Empty: scheme and host of the request",
    { default: '', protocols: ['http:', 'https:'] },
  ),
  limiterTimeoutMs: int(
    'LIMITER_TIMEOUT_MS',
    'how long the rate limit/quota check waits for Redis before the per-process fallback limiter decides, and an Idempotency-Key or delivery id check before the request goes on without de-duplication',
    { default: 200, min: 10 },
  ),
  idempotencyWindowS: int(
    'IDEMPOTENCY_WINDOW_S',
    'how long a request accepted with an Idempotency-Key answers for later requests with the same key to the same endpoint (seconds)',
    { default: 86400, min: 60, max: 604800 },
  ),
  quarantinePerAccountPerHour: int(
    'QUARANTINE_PER_ACCOUNT_PER_HOUR',
    'refused requests an account keeps in quarantine for a re-run per UTC hour (docs/ingest.md "Quarantine"); past it a refusal keeps only its row; 0 keeps none',
    { default: 1000, min: 0, max: 1000000 },
  ),
  captchaTimeoutMs: int(
    'CAPTCHA_TIMEOUT_MS',
    'timeout of one captcha siteverify call; on timeout the request gets 503 endpoint_unavailable',
    { default: 3000, min: 100 },
  ),
  // docs/security.md "Rule cost": the figures behind these defaults
  rulesInlineCost: int(
    'RULES_INLINE_COST',
    'a request whose pattern rules (body filters, field rules, routing) may cost at most this (RE2 program size × characters of text, summed) runs them on the event loop; above it, in the rule pool',
    { default: 2000, min: 0 },
  ),
  rulesDeadlineMs: int(
    'RULES_DEADLINE_MS',
    "how long one request's rules may run in the rule pool; then its worker is replaced and the request gets 413 rules_deadline_exceeded",
    { default: 500, min: 10 },
  ),
  rulesPoolSize: int('RULES_POOL_SIZE', 'worker threads of the rule pool (at most the cores less one)', {
    default: 1,
    min: 1,
  }),
  rulesPoolQueue: int(
    'RULES_POOL_QUEUE',
    'requests waiting for the rule pool, all accounts together; more get 503 endpoint_unavailable',
    { default: 64, min: 1 },
  ),
  rulesPoolAccountMax: int(
    'RULES_POOL_ACCOUNT_MAX',
    "one account's requests waiting for or running in the rule pool; more get 429 rules_busy",
    { default: 16, min: 1 },
  ),
  // certificate-signed presets (docs/inbound-auth.md "Certificate-signed presets")
  providerCertTimeoutMs: int(
    'PROVIDER_CERT_TIMEOUT_MS',
    "timeout of one fetch of a provider's signing certificate (SNS, PayPal), eBay key or access token, or SNS SubscribeURL; then 503 signing_certificate_unavailable",
    { default: 3000, min: 100 },
  ),
  providerCertCacheMax: int(
    'PROVIDER_CERT_CACHE_MAX',
    'provider signing certificates and eBay keys kept in memory, and eBay access tokens (least recently used dropped first)',
    { default: 1000, min: 1 },
  ),
  providerCertMaxAgeS: int(
    'PROVIDER_CERT_MAX_AGE_S',
    'a kept signing certificate is fetched again after this long (seconds), or at its expiry if sooner (an eBay key after one hour at most)',
    { default: 86400, min: 60 },
  ),
  hostRoutes: list(
    'HOST_ROUTES',
    "provider hosts to connect to at another address (a private egress), host=address:port comma-separated (e.g. api.paypal.com=10.0.0.5:443); the URL, Host and TLS name stay the provider's; each address must pass the SSRF guard; empty = DNS",
    { default: [] },
  ),
  extraCaCerts: str(
    'NODE_EXTRA_CA_CERTS',
    "PEM file Node adds to its TLS trust anchors; the gateway also trusts it as a root of providers' signing certificates; empty = the bundled roots only",
    { default: '' },
  ),
  // captcha verify URLs pass the same SSRF guard as deliveries
  ...ssrfVars,
};

export type Config = ConfigOf<typeof configSpec>;
