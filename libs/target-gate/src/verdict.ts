/** Why the gate held a delivery: its rate, its deliveries in flight, or its breaker's state. */
const HOLD_REASONS = ['rate', 'in_flight', 'open', 'half_open', 'paused'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** What the gate let through: a plain send (with a lease to give back, or none), or the breaker's probe. */
export type Pass = { verdict: 'go'; lease: string | null } | { verdict: 'probe'; lease: string };
export type GateVerdict = Pass | { verdict: 'hold'; reason: HoldReason; waitMs: number };
