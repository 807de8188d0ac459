import type { TargetRecord } from '@relay/store';
import type { BatchRequest, GateAnswer } from './breaker-redis';
import type { EffectiveLimits } from './limits';
import type { GateVerdict } from './verdict';

/**
 * A deliverer's local share of a limited target's allowance (docs/delivery-limits.md "Batches
 * of a limit"): rate tokens and in-flight slots taken from Redis a few at a time by one GATE
 * call, spent by this process's deliveries without a round trip each.
 *
 * Exact-or-stricter across instances: every token and slot is an entry in the target's shared
 * rate log or lease set from the moment it is granted until it is given back or expires, so
 * the scripts count it whether or not it was spent yet. A token may be spent only until
 * `grant + ALLOWANCE_VALID_MS`, and the script counts a batch's tokens from that time, so a
 * token spent late is still in every window it could fall in (the price: a batched limit that
 * binds sends at most rate × per / (per + 100 ms), 91 % of a per-second rate). A slot starts
 * attempts only for `slotValidMs` after its grant (a sixth of the lease: 10 s of 60 s), so its
 * lease, longer than any attempt (an SMTP session's 30 s at most), outlives the last attempt it
 * carried; a slot idle for ALLOWANCE_VALID_MS goes back (with the next call, or by the sweep
 * ALLOWANCE_VALID_MS later), so it keeps no other deliverer waiting longer than twice that.
 */

/** How long a batch's tokens may be spent after the call that took them began; how long a slot may sit idle. */
export const ALLOWANCE_VALID_MS = 100;
/** The most tokens or slots one call takes for its target's size alone. */
export const MAX_BATCH = 64;
/** Deliveries waiting for a call raise what it takes up to this many times the batch size. */
const DEMAND_FACTOR = 4;
/** Refills a delivery waits through before it asks once for itself. */
const MAX_ROUNDS = 8;
/** Targets with a share at once; past that a target's deliveries ask one at a time, as before. */
export const MAX_SHARES = 10_000;

export interface BatchSizes {
  /** tokens one call takes (0: the target has no rate) */
  tokens: number;
  /** slots one call takes (0: the target has no in-flight limit) */
  slots: number;
}

/**
 * How much one call takes, from the target's own limits: the tokens its rate allows in
 * ALLOWANCE_VALID_MS and a tenth of its in-flight limit (so ten deliverers can each hold a batch),
 * at most MAX_BATCH. `null` — ask once per delivery, as without batches — where either is
 * below 2: a Slack target's 1 a second, Discord's 30 a minute, a target with 5 in flight.
 */
export function batchSizes(limits: EffectiveLimits): BatchSizes | null {
  const tokens = limits.rate
    ? Math.min(MAX_BATCH, Math.floor((limits.rate * ALLOWANCE_VALID_MS) / limits.windowMs))
    : 0;
  const slots = limits.maxInFlight ? Math.min(MAX_BATCH, Math.floor(limits.maxInFlight / 10)) : 0;
  if ((limits.rate && tokens < 2) || (limits.maxInFlight && slots < 2) || tokens + slots === 0) return null;
  return { tokens, slots };
}

/** A GATE answer with what it granted (the members of the rate log and the lease set). */
export type BatchAnswer = GateAnswer & { tokens?: string[]; slots?: string[] };

export interface AllowanceOptions {
  /** one GATE call for the target (with the breaker's follow-up done by the gate) */
  ask(target: TargetRecord, limits: EffectiveLimits, batch: BatchRequest): Promise<BatchAnswer>;
  /** gives back unspent tokens and idle slots (the RETURN script) */
  giveBack(targetId: string, tokens: string[], slots: string[]): Promise<void>;
  /** a call failed: the gate logs it (at most once a second) */
  warn(what: string, targetId: string, err: unknown): void;
  /** how long after its grant a slot may start attempts: a sixth of the lease (its lease must outlive the last attempt) */
  slotValidMs: number;
  /** a monotonic clock in ms (performance.now) */
  now?: () => number;
}

interface Slot {
  lease: string;
  /** it starts no attempt from then on */
  until: number;
  /** it goes back from then on unless an attempt takes it */
  idleUntil: number;
}

interface Share {
  /** the limits it was granted under: a change of limits starts a new share */
  key: string;
  /** the target limits its rate (a delivery spends a token) and its deliveries in flight (it holds a slot) */
  rate: boolean;
  flight: boolean;
  tokens: string[];
  tokensUntil: number;
  /** slots held and not carrying an attempt */
  idle: Slot[];
  /** the earliest `idleUntil` among them: idle slots are scanned only from then (amortized O(1) per delivery) */
  idleCheckAt: number;
  /** slots carrying an attempt, and until when each may start another */
  busy: Map<string, number>;
  /** tokens and slots past their time, given back with the next call (or by the sweep) */
  stale: { tokens: string[]; slots: string[] };
  refill: Promise<void> | null;
  /** deliveries waiting for the refill under way: the next call takes enough for them */
  waiting: number;
  timer: NodeJS.Timeout | null;
}

const limitsKey = (l: EffectiveLimits): string => `${l.rate ?? 0}/${l.windowMs}/${l.maxInFlight ?? 0}`;

/** Every limited target's share in this process, at most MAX_SHARES of them. */
export class TargetAllowances {
  private readonly shares = new Map<string, Share>();
  private readonly now: () => number;

  constructor(private readonly opts: AllowanceOptions) {
    this.now = opts.now ?? (() => performance.now());
  }

  /** targets holding a share now */
  get size(): number {
    return this.shares.size;
  }

  /**
   * A delivery's pass from the target's share, refilled by one call when it has run out (one
   * call at a time per target; the others wait for it). `null`: ask once for this delivery
   * instead (no room for another share, or concurrent deliveries outran MAX_ROUNDS refills).
   */
  async admit(target: TargetRecord, limits: EffectiveLimits, sizes: BatchSizes): Promise<GateVerdict | null> {
    const targetId = target.id;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const share = this.shareOf(targetId, limits);
      if (!share) return null;
      const pass = this.take(share);
      if (pass) return pass;
      if (share.refill) {
        share.waiting++;
        await share.refill;
        share.waiting--;
        continue;
      }
      const answer = await this.refill(target, share, limits, sizes);
      if (answer === 'failed') return { verdict: 'go', lease: null };
      if (answer.verdict === 'hold') return { verdict: 'hold', reason: answer.reason, waitMs: answer.waitMs };
      if (answer.verdict === 'probe') return { verdict: 'probe', lease: answer.lease };
    }
    return null;
  }

  /**
   * An attempt that held `lease` ended. `true`: the slot is kept for this process's next
   * delivery (it may still start attempts); `false`: give it back with the batch's report.
   */
  release(targetId: string, lease: string): boolean {
    const share = this.shares.get(targetId);
    const until = share?.busy.get(lease);
    if (share === undefined || until === undefined) return false;
    share.busy.delete(lease);
    // its timer gives the slot back once it can no longer start an attempt (or forgets an empty share)
    const now = this.now();
    const idleUntil = Math.min(until, now + ALLOWANCE_VALID_MS);
    if (!share.timer) this.schedule(targetId, share, idleUntil);
    if (now >= until) return false;
    share.idle.push({ lease, until, idleUntil });
    share.idleCheckAt = Math.min(share.idleCheckAt, idleUntil);
    return true;
  }

  /**
   * Gives back what can no longer start an attempt (tokens and idle slots past their deadline)
   * and forgets a share with nothing left; run by each share's timer and at shutdown.
   */
  async sweep(all = false): Promise<void> {
    await Promise.all([...this.shares.entries()].map(([id, share]) => this.sweepOne(id, share, all)));
  }

  private async sweepOne(targetId: string, share: Share, all: boolean): Promise<void> {
    if (share.timer) clearTimeout(share.timer);
    share.timer = null;
    const now = all ? Infinity : this.now();
    this.expire(share, now);
    const { tokens, slots } = share.stale;
    share.stale = { tokens: [], slots: [] };
    const next = Math.min(share.tokens.length ? share.tokensUntil : Infinity, share.idleCheckAt);
    if (next !== Infinity) this.schedule(targetId, share, next);
    else if (share.busy.size === 0 && !share.refill && this.shares.get(targetId) === share)
      this.shares.delete(targetId);
    if (tokens.length + slots.length === 0) return;
    try {
      await this.opts.giveBack(targetId, tokens, slots);
    } catch (err) {
      this.opts.warn('unspent limit reservations not given back; they expire', targetId, err);
    }
  }

  private shareOf(targetId: string, limits: EffectiveLimits): Share | null {
    const key = limitsKey(limits);
    const share = this.shares.get(targetId);
    if (share?.key === key) return share;
    if (share) {
      // new limits: what the old share holds goes back at once; its busy slots with their reports
      this.expire(share, Infinity);
      this.shares.delete(targetId);
      void this.sweepOne(targetId, share, true);
    } else if (this.shares.size >= MAX_SHARES) return null;
    const fresh: Share = {
      key,
      rate: Boolean(limits.rate),
      flight: Boolean(limits.maxInFlight),
      tokens: [],
      tokensUntil: 0,
      idle: [],
      idleCheckAt: Infinity,
      busy: new Map(),
      stale: { tokens: [], slots: [] },
      refill: null,
      waiting: 0,
      timer: null,
    };
    this.shares.set(targetId, fresh);
    return fresh;
  }

  /** A token and a slot (each where the target limits it) that may still start an attempt. */
  private take(share: Share): GateVerdict | null {
    const now = this.now();
    this.expire(share, now);
    if ((share.rate && share.tokens.length === 0) || (share.flight && share.idle.length === 0)) return null;
    if (share.rate) share.tokens.pop();
    if (!share.flight) return { verdict: 'go', lease: null };
    const slot = share.idle.pop() as Slot;
    share.busy.set(slot.lease, slot.until);
    return { verdict: 'go', lease: slot.lease };
  }

  /** Moves tokens past their deadline and slots idle too long (or past theirs) to the give-back list. */
  private expire(share: Share, now: number): void {
    if (share.tokens.length && now >= share.tokensUntil) {
      share.stale.tokens.push(...share.tokens);
      share.tokens = [];
    }
    if (now < share.idleCheckAt) return;
    const keep: Slot[] = [];
    let next = Infinity;
    for (const s of share.idle) {
      if (now >= s.idleUntil) share.stale.slots.push(s.lease);
      else {
        keep.push(s);
        next = Math.min(next, s.idleUntil);
      }
    }
    share.idle = keep;
    share.idleCheckAt = next;
  }

  private async refill(
    target: TargetRecord,
    share: Share,
    limits: EffectiveLimits,
    sizes: BatchSizes,
  ): Promise<BatchAnswer | 'failed'> {
    const targetId = target.id;
    const started = this.now();
    // enough for the deliveries already waiting (a deliverer runs hundreds at once), within bounds
    const want = (size: number): number => Math.max(size, Math.min(share.waiting + 1, size * DEMAND_FACTOR));
    const batch: BatchRequest = {
      tokens: share.tokens.length === 0 ? want(sizes.tokens) : 0,
      slots: share.idle.length === 0 ? want(sizes.slots) : 0,
      validMs: ALLOWANCE_VALID_MS,
      giveBack: share.stale,
    };
    share.stale = { tokens: [], slots: [] };
    let answer: BatchAnswer | 'failed' = 'failed';
    let done = (): void => undefined;
    share.refill = new Promise<void>((resolve) => (done = resolve));
    try {
      answer = await this.opts.ask(target, limits, batch);
      const until = started + ALLOWANCE_VALID_MS;
      if (answer.verdict === 'go') {
        if (answer.tokens?.length) {
          share.tokens.push(...answer.tokens);
          share.tokensUntil = until;
        }
        for (const lease of answer.slots ?? [])
          share.idle.push({ lease, until: started + this.opts.slotValidMs, idleUntil: until });
        if (answer.slots?.length) share.idleCheckAt = Math.min(share.idleCheckAt, until);
        if (!share.timer) this.schedule(targetId, share, until);
      }
    } catch (err) {
      this.opts.warn('target gate not asked; sending', targetId, err);
    } finally {
      share.refill = null;
      done();
    }
    return answer;
  }

  /**
   * The share's sweep, ALLOWANCE_VALID_MS after `at`: a target still busy has given its expired
   * part back with its next call by then, so only a target gone quiet costs a GIVE_BACK.
   */
  private schedule(targetId: string, share: Share, at: number): void {
    share.timer = setTimeout(
      () => void this.sweepOne(targetId, share, false),
      Math.max(0, at - this.now()) + ALLOWANCE_VALID_MS,
    );
    share.timer.unref();
  }
}
