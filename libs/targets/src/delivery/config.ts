import { commonVars, int, list, mongoVars, rabbitVars, str } from '@relay/config';
import type { ConfigOf } from '@relay/config';

/** The settings every deliverer reads; each deliverer service differs only in its health port. */
export function delivererConfigSpec(defaultHealthPort: number) {
  return {
    ...commonVars,
    ...rabbitVars,
    ...mongoVars,
    healthPort: int('HEALTH_PORT', 'HTTP port serving /healthz and /readyz', { default: defaultHealthPort, min: 0, max: 65535 }),
    prefetch: int('PREFETCH', 'deliveries handled concurrently by one instance (AMQP prefetch)', { default: 32, min: 1, max: 1000 }),
    requestTimeoutMs: int('DELIVERY_TIMEOUT_MS', 'timeout of one outbound delivery request', { default: 10000, min: 100 }),
    targetCacheTtlMs: int('TARGET_CACHE_TTL_MS', 'how long a target configuration stays cached in-process', { default: 5000, min: 0 }),
    confirmTimeoutMs: int('PUBLISH_CONFIRM_TIMEOUT_MS', 'how long recording an attempt outcome waits for the broker confirm before the delivery is requeued', { default: 5000, min: 50 }),
    deliveryLimit: int('BROKER_DELIVERY_LIMIT', 'redeliveries of one message before the broker dead-letters it (quorum x-delivery-limit)', { default: 20, min: 1 }),
    ssrfAllowCidrs: list('SSRF_ALLOW_CIDRS', 'CIDRs exempt from the SSRF guard (e.g. 127.0.0.0/8 for local receivers); empty = none', { default: [] }),
    secretsKeys: str('SECRETS_KEYS', 'keys that decrypt target secrets, "keyid:base64(32 bytes)" comma-separated (the same value as the management API)', { secret: true }),
  };
}

export type DelivererConfig = ConfigOf<ReturnType<typeof delivererConfigSpec>>;
