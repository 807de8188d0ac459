import {
  cacheVars,
  ConfigError,
  commonVars,
  healthHostVars,
  int,
  list,
  mongoVars,
  rabbitVars,
  redisVars,
  ssrfVars,
  str,
} from '@relay/config';
import type { ConfigOf } from '@relay/config';
import type { DeliveryChannel } from '@relay/contracts';
import { CATALOG } from '@relay/targets';
import type { Catalog } from '@relay/targets';
import type { RetryPolicy } from '../retry/decide';
import { DEFAULT_RETRY_AFTER_MAX_MS, defaultRetryTiers, parseTiers } from '../retry/tiers';

/**
 * Webhook destinations are any number of receivers: 256 in flight keep one process busy (32 left
 * it idle while 15,700 deliveries queued, docs/benchmarks.md "Whole system"). Chat platforms
 * allow a few messages a second per webhook (../shared/reference/chat-platforms.md), so more in
 * flight there buys 429s and retries, not throughput. Outputs share one mail relay (a few pooled
 * connections) and Google's 60 writes a minute per service account, so the same holds there.
 */
const DEFAULT_PREFETCH: Record<DeliveryChannel, number> = { webhook: 256, chat: 32, outputs: 32 };

/**
 * The settings every deliverer reads; the deliverers differ in health port and retry defaults,
 * which follow the kinds `catalog` puts on the channel.
 */
export function delivererConfigSpec(defaults: { healthPort: number; channel: DeliveryChannel; catalog?: Catalog }) {
  const { healthPort, channel, catalog = CATALOG } = defaults;
  return {
    ...commonVars,
    ...rabbitVars,
    ...mongoVars,
    ...redisVars,
    ...cacheVars,
    ...healthHostVars,
    healthPort: int('HEALTH_PORT', 'HTTP port serving /healthz and /readyz', {
      default: healthPort,
      min: 0,
      max: 65535,
    }),
    prefetch: int(
      'PREFETCH',
      'deliveries handled concurrently by one instance (AMQP prefetch): most of a delivery is waiting on the destination and on confirms, so one process needs many at once to use its CPU',
      { default: DEFAULT_PREFETCH[channel], min: 1, max: 1000 },
    ),
    requestTimeoutMs: int('DELIVERY_TIMEOUT_MS', 'timeout of one outbound delivery request', {
      default: 10000,
      min: 100,
    }),
    targetCacheMax: int(
      'TARGET_CACHE_MAX',
      'target configurations kept in memory (least recently used dropped first); each is kept until a change announcement says it changed',
      { default: 10000, min: 1 },
    ),
    confirmTimeoutMs: int(
      'PUBLISH_CONFIRM_TIMEOUT_MS',
      'how long recording an attempt outcome waits for the broker confirm before the delivery is requeued',
      { default: 5000, min: 50 },
    ),
    deliveryLimit: int(
      'BROKER_DELIVERY_LIMIT',
      'redeliveries of one message before the broker dead-letters it (quorum x-delivery-limit)',
      { default: 20, min: 1 },
    ),
    ...ssrfVars,
    secretsKeys: str(
      'SECRETS_KEYS',
      'keys that decrypt target secrets, "keyid:base64(32 bytes)" comma-separated (the same value as the management API)',
      { secret: true },
    ),
    retryTiersMs: list(
      'RETRY_TIERS_MS',
      `delay tiers (ms) of the ${channel} retry queues, declared at start-up; a retry waits in the smallest tier at or above its delay (docs/delivery.md)`,
      {
        default: defaultRetryTiers(channel, catalog).map(String),
      },
    ),
    retryJitterPct: int(
      'RETRY_JITTER_PCT',
      'a retry picks at random among the tiers up to this percent above its scheduled delay',
      { default: 20, min: 0, max: 100 },
    ),
    retryAfterMaxMs: int(
      'RETRY_AFTER_MAX_MS',
      `longest Retry-After / retry_after hint honoured (ms); longer hints are capped; at most the largest tier`,
      {
        default: DEFAULT_RETRY_AFTER_MAX_MS[channel],
        min: 0,
      },
    ),
    orderingPrefetch: int(
      'ORDERING_PREFETCH',
      'deliveries each ordered partition hands one instance at once (docs/ordering.md): the window a held key can fill',
      { default: 32, min: 1, max: 1000 },
    ),
    orderingHoldMaxMs: int(
      'ORDERING_HOLD_MAX_MS',
      "longest an ordered delivery is kept unacknowledged before it is dead-lettered and its key's next goes; keep it under the broker's consumer_timeout (30 min on RabbitMQ 3.10)",
      { default: 1_500_000, min: 1000 },
    ),
    orderingBalanceMs: int(
      'ORDERING_BALANCE_MS',
      'how often a deliverer looks whether it holds more than its share of the ordered partitions and gives one to the next deliverer (0 = never)',
      { default: 10_000, min: 0 },
    ),
    orderingStuckAfterMs: int(
      'ORDERING_STUCK_AFTER_MS',
      'an ordering key whose head has waited this long is stuck: counted, logged, told to alert rules and marked in the dashboard',
      { default: 60_000, min: 100 },
    ),
    flagAfterPermanentFailures: int(
      'FLAG_AFTER_PERMANENT_FAILURES',
      'permanent failures in a row that flag a target (0 = only 410 / unknown webhook and the like flag)',
      { default: 5, min: 0 },
    ),
  };
}

export type DelivererConfig = ConfigOf<ReturnType<typeof delivererConfigSpec>>;

/** The retry settings as one policy; fails fast (every problem at once) on unusable tiers. */
export function retryPolicyOf(config: DelivererConfig): RetryPolicy {
  const { tiers, problems } = parseTiers(config.retryTiersMs);
  const largest = tiers[tiers.length - 1] ?? 0;
  if (tiers.length > 0 && config.retryAfterMaxMs > largest)
    problems.push(
      `RETRY_AFTER_MAX_MS: ${config.retryAfterMaxMs} exceeds the largest tier (${largest}); a hint that long could not be honoured`,
    );
  if (config.orderingStuckAfterMs >= config.orderingHoldMaxMs)
    problems.push(
      `ORDERING_STUCK_AFTER_MS: ${config.orderingStuckAfterMs} is not below ORDERING_HOLD_MAX_MS (${config.orderingHoldMaxMs}); a key would end before it is reported stuck`,
    );
  if (problems.length > 0) throw new ConfigError(problems);
  return { tiersMs: tiers, jitterPct: config.retryJitterPct, retryAfterMaxMs: config.retryAfterMaxMs };
}
