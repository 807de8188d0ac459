import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The gateway's Prometheus metrics, on GET /metrics of the health server. */
export interface GatewayMetrics {
  registry: Registry;
  /** one per answered request, by outcome (`ACCEPTED`, an outcome code, or the 404/503 code) */
  requests: Counter<'outcome'>;
  /** seconds from the request's arrival to its 202 (body read, deliveries confirmed by the broker) */
  acceptedDuration: Histogram;
  /** broker publishes (deliveries, activity rows, stored payloads), by how they ended: `confirmed` or a failure reason */
  publishes: Counter<'result'>;
  /** requests whose limits were decided per process because Redis was unreachable */
  limiterFallback: Counter;
  /** captcha checks that could not reach the provider (the request got 503) */
  captchaUnavailable: Counter;
  /** endpoint lookups the store could not answer, by what was served: a stale copy, or 503 */
  endpointLookupFailures: Counter<'served'>;
  /** requests whose rules went to the rule pool, by its answer (docs/security.md "Rule cost") */
  rulePool: Counter<'result'>;
}

/**
 * Buckets around the 202 path's expected cost: a broker confirm is a few ms on a quiet broker,
 * tens under load, and a second or more only when confirms time out.
 */
const ACCEPTED_BUCKETS_S = [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * A registry of its own per app (main passes one with the process metrics in it), so several
 * gateways in one test process do not collide. No label carries an endpoint or event id:
 * outcomes and publish results are fixed sets.
 */
export function createGatewayMetrics(registry: Registry = new Registry()): GatewayMetrics {
  return {
    registry,
    requests: new Counter({
      name: 'relay_ingest_requests_total',
      help: 'ingest requests answered, by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    acceptedDuration: new Histogram({
      name: 'relay_ingest_accepted_duration_seconds',
      help: "time from a request's arrival to its 202: body read, checks, deliveries confirmed by the broker",
      buckets: ACCEPTED_BUCKETS_S,
      registers: [registry],
    }),
    publishes: new Counter({
      name: 'relay_ingest_publishes_total',
      help: 'broker publishes (deliveries, activity rows and stored payloads), by result: confirmed, or why the broker did not take it (not_connected, channel_closed, nacked, unroutable, confirm_timeout)',
      labelNames: ['result'],
      registers: [registry],
    }),
    limiterFallback: new Counter({
      name: 'relay_ingest_limiter_fallback_total',
      help: 'requests whose rate limit and quota were decided per process because Redis was unreachable',
      registers: [registry],
    }),
    captchaUnavailable: new Counter({
      name: 'relay_ingest_captcha_unavailable_total',
      help: 'captcha verifications that could not reach the provider',
      registers: [registry],
    }),
    endpointLookupFailures: new Counter({
      name: 'relay_ingest_endpoint_lookup_failures_total',
      help: 'endpoint lookups the store could not answer, by what was served (stale copy, or 503 unavailable)',
      labelNames: ['served'],
      registers: [registry],
    }),
    rulePool: new Counter({
      name: 'relay_ingest_rule_pool_total',
      help: 'requests whose pattern rules cost more than RULES_INLINE_COST, by the rule pool answer: done, deadline, unusable, busy_account, busy_pool',
      labelNames: ['result'],
      registers: [registry],
    }),
  };
}

/** Reading the spool's length gives up after this long: a scrape must not hang on a stalled Redis. */
const SPOOL_READ_TIMEOUT_MS = 1000;

/**
 * `relay_ingest_activity_spool_length`: activity rows waiting in Redis for the broker, read
 * (LLEN, O(1)) when scraped. Unreadable (Redis down or slow): NaN for that scrape — neither a
 * failed /metrics answer nor a 0 that would read as "spool empty".
 */
export function registerSpoolLength(registry: Registry, length: () => Promise<number>): void {
  new Gauge({
    name: 'relay_ingest_activity_spool_length',
    help: 'activity rows kept in the Redis spool because the broker would not take them, waiting to be re-published',
    registers: [registry],
    async collect() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), SPOOL_READ_TIMEOUT_MS);
      });
      const n = await Promise.race([length().catch(() => null), timeout]);
      clearTimeout(timer);
      this.set(n ?? Number.NaN);
    },
  });
}
