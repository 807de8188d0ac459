import { Counter, Gauge, Histogram } from 'prom-client';
import { BREAKER_STATES } from '@relay/store';
import type { TargetRecord } from '@relay/store';
import type { Registry } from 'prom-client';
import type { GateScripts } from '@relay/target-gate';
import { FLAG_REASONS } from './ports';
import type { DeliveryMeter } from './ports';

/**
 * Attempt latency buckets: from a receiver on the same network (ms) to the request timeout
 * (REQUEST_TIMEOUT_MS, 10 s by default; a timed-out attempt lands in the last bucket or +Inf).
 */
const ATTEMPT_BUCKETS_S = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * A deliverer's Prometheus metrics. Labels are bounded: `kind` is a registered target kind (or
 * `unknown`), `result` one of four, `tier_ms` one of the configured RETRY_TIERS_MS (or 0),
 * `reason` permanent or exhausted (dead letters), destination, streak or breaker (flags), or a hold reason — never an
 * endpoint, target, event or delivery id.
 *
 * `kinds` (the channel's target kinds) start the flag counter at 0: Prometheus' increase() sees
 * nothing in a series that first appears at 1, so without them the first flag after a start
 * would never reach the RelayTargetFlagged alert.
 */
export function createDeliveryMetrics(registry: Registry, kinds: readonly string[] = []): DeliveryMeter {
  const attempts = new Counter({
    name: 'relay_delivery_attempts_total',
    help: 'delivery attempts whose outcome was made durable, by target kind and result: delivered, retrying (next attempt scheduled), dead (dead-lettered), failed (target deleted; not kept)',
    labelNames: ['kind', 'result'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'relay_delivery_attempt_duration_seconds',
    help: 'time of one delivery request, from sending to the classified response, by target kind',
    labelNames: ['kind'],
    buckets: ATTEMPT_BUCKETS_S,
    registers: [registry],
  });
  const retries = new Counter({
    name: 'relay_delivery_retries_scheduled_total',
    help: "retries published to a delay tier, by the tier's delay in ms (0: straight back to the work queue)",
    labelNames: ['tier_ms'],
    registers: [registry],
  });
  const dead = new Counter({
    name: 'relay_delivery_dead_lettered_total',
    help: "deliveries published to the channel's dead-letter queue, by target kind and reason (permanent, exhausted)",
    labelNames: ['kind', 'reason'],
    registers: [registry],
  });
  const flagged = new Counter({
    name: 'relay_delivery_targets_flagged_total',
    help: 'targets this deliverer flagged (no requests until an operator clears the flag), by target kind and reason: destination (gone, or a config that cannot build a request), streak (FLAG_AFTER_PERMANENT_FAILURES permanent failures in a row)',
    labelNames: ['kind', 'reason'],
    registers: [registry],
  });
  for (const kind of kinds) for (const reason of FLAG_REASONS) flagged.inc({ kind, reason }, 0);
  const held = new Counter({
    name: 'relay_delivery_held_total',
    help: "deliveries held back without an attempt and published again to wait on the broker, by target kind and reason: rate, in_flight (the target's limits), open, half_open (its breaker), paused (by hand)",
    labelNames: ['kind', 'reason'],
    registers: [registry],
  });
  const transitions = new Counter({
    name: 'relay_target_breaker_transitions_total',
    help: 'target breaker transitions this deliverer made, by the state entered: open (opens), closed (closes), half_open (a probe let through)',
    labelNames: ['to'],
    registers: [registry],
  });
  for (const to of ['open', 'closed', 'half_open']) transitions.inc({ to }, 0);
  return {
    attempted(kind, result, sentMs) {
      attempts.inc({ kind, result });
      if (sentMs !== null) duration.observe({ kind }, sentMs / 1000);
    },
    retryScheduled: (tierMs) => retries.inc({ tier_ms: String(tierMs) }),
    deadLettered: (kind, reason) => dead.inc({ kind, reason }),
    targetFlagged: (kind, reason) => flagged.inc({ kind, reason }),
    held: (kind, reason) => held.inc({ kind, reason }),
    breakerTransition: (to) => transitions.inc({ to }),
  };
}

/**
 * relay_target_breaker_state{state}: how many of the targets this deliverer holds (its target
 * cache: the targets it delivered to lately, at most TARGET_CACHE_MAX) are in each breaker state,
 * as last stored. Read at scrape time, O(cache size); instances see the same stored states, so
 * dashboards take `max by (state)`. A target's id is never a label.
 */
export function registerBreakerStateGauge(registry: Registry, held: () => Iterable<TargetRecord>): void {
  new Gauge({
    name: 'relay_target_breaker_state',
    help: 'targets this deliverer holds in its cache, by circuit-breaker state as last stored: closed, open, half_open, paused (docs/delivery-limits.md)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const counts = new Map<string, number>(BREAKER_STATES.map((s) => [s, 0]));
      for (const t of held()) {
        const state = t.breaker_state?.state ?? 'closed';
        counts.set(state, (counts.get(state) ?? 0) + 1);
      }
      for (const [state, n] of counts) this.set({ state }, n);
    },
  });
}

/**
 * relay_target_gate_calls_total{script}: the target gate's Redis script calls (gate: before an
 * attempt or for a batch of tokens and slots; report: a batch of one target's outcomes and
 * leases; probed: a probe's end; give_back: unspent tokens and idle slots) — what
 * the gate costs Redis per delivery, the figure docs/delivery-limits.md "What it costs per
 * delivery" states.
 */
export function countGateCalls(registry: Registry, scripts: GateScripts): GateScripts {
  const calls = new Counter({
    name: 'relay_target_gate_calls_total',
    help: "Redis script calls of the target gate, by script: gate (before an attempt, or a batch of tokens and slots), report (one target's batch of outcomes and leases), probed (a probe's end), give_back (unspent tokens and idle slots)",
    labelNames: ['script'],
    registers: [registry],
  });
  for (const script of ['gate', 'report', 'probed', 'give_back']) calls.inc({ script }, 0);
  return {
    gate: (...a) => (calls.inc({ script: 'gate' }), scripts.gate(...a)),
    report: (...a) => (calls.inc({ script: 'report' }), scripts.report(...a)),
    probed: (...a) => (calls.inc({ script: 'probed' }), scripts.probed(...a)),
    giveBack: (...a) => (calls.inc({ script: 'give_back' }), scripts.giveBack(...a)),
  };
}
