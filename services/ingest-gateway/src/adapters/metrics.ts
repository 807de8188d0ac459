import { Counter, Registry } from 'prom-client';

/** The gateway's Prometheus metrics, on GET /metrics. */
export interface GatewayMetrics {
  registry: Registry;
  /** one per answered request, by outcome (`ACCEPTED`, an outcome code, or the 404/503 code) */
  requests: Counter<'outcome'>;
  /** requests whose limits were decided per process because Redis was unreachable */
  limiterFallback: Counter;
  /** captcha checks that could not reach the provider (the request got 503) */
  captchaUnavailable: Counter;
  /** endpoint lookups the store could not answer, by what was served: a stale copy, or 503 */
  endpointLookupFailures: Counter<'served'>;
}

/** A registry of its own per app, so several gateways in one test process do not collide. */
export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  return {
    registry,
    requests: new Counter({ name: 'relay_ingest_requests_total', help: 'ingest requests answered, by outcome', labelNames: ['outcome'], registers: [registry] }),
    limiterFallback: new Counter({ name: 'relay_ingest_limiter_fallback_total', help: 'requests whose rate limit and quota were decided per process because Redis was unreachable', registers: [registry] }),
    captchaUnavailable: new Counter({ name: 'relay_ingest_captcha_unavailable_total', help: 'captcha verifications that could not reach the provider', registers: [registry] }),
    endpointLookupFailures: new Counter({ name: 'relay_ingest_endpoint_lookup_failures_total', help: 'endpoint lookups the store could not answer, by what was served (stale copy, or 503 unavailable)', labelNames: ['served'], registers: [registry] }),
  };
}
