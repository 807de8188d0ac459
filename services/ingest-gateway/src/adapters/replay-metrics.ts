import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';

/** Metrics of what the gateway keeps for replays: stored payloads and idempotency keys. */
export interface ReplayMetrics {
  /** accepted payloads the broker did not take: those events cannot be resent */
  payloadsLost: Counter;
  /** requests with an Idempotency-Key that went on without de-duplication (Redis unavailable) */
  idempotencyUnavailable: Counter;
}

export function createReplayMetrics(registry: Registry): ReplayMetrics {
  return {
    payloadsLost: new Counter({
      name: 'relay_ingest_payloads_not_stored_total',
      help: 'accepted payloads not kept for resends because the broker did not take them',
      registers: [registry],
    }),
    idempotencyUnavailable: new Counter({
      name: 'relay_ingest_idempotency_unavailable_total',
      help: 'requests with an Idempotency-Key processed without de-duplication because Redis could not be asked',
      registers: [registry],
    }),
  };
}
