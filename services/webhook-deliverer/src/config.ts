import { commonVars, int, list, mongoVars, rabbitVars } from '@relay/config';
import type { ConfigOf } from '@relay/config';

export const configSpec = {
  ...commonVars,
  ...rabbitVars,
  ...mongoVars,
  healthPort: int('HEALTH_PORT', 'HTTP port serving /healthz, /readyz and /metrics', { default: 8091, min: 0, max: 65535 }),
  prefetch: int('PREFETCH', 'deliveries handled concurrently by one instance (AMQP prefetch)', { default: 32, min: 1, max: 1000 }),
  requestTimeoutMs: int('DELIVERY_TIMEOUT_MS', 'timeout of one outbound delivery request', { default: 10000, min: 100 }),
  targetCacheTtlMs: int('TARGET_CACHE_TTL_MS', 'how long a target configuration stays cached in-process', { default: 5000, min: 0 }),
  deliveryLimit: int('BROKER_DELIVERY_LIMIT', 'redeliveries of one message before the broker dead-letters it (quorum x-delivery-limit)', { default: 20, min: 1 }),
  ssrfAllowCidrs: list('SSRF_ALLOW_CIDRS', 'CIDRs exempt from the SSRF guard (e.g. 127.0.0.0/8 for local receivers); empty = none', { default: [] }),
};

export type Config = ConfigOf<typeof configSpec>;
