import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { RedisClient } from '@relay/cache';
import { orderingHeldKey } from '@relay/contracts';
import type { ActivityAttemptV1, DeliveryMessageV1, HeldOrderKey } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { unsentAttempt } from './attempt-record';

/** Where held keys are shown (Redis, for the management API and the dashboard). */
export interface HeldKeyStore {
  put(targetId: string, entry: HeldOrderKey): Promise<void>;
  remove(targetId: string, key: string): Promise<void>;
}

/**
 * A hash per target; each write renews its expiry, so a deliverer that is killed leaves its
 * entries for `ttlMs` at most (its keys' heads come again to the next deliverer, which writes them
 * anew).
 */
export function redisHeldKeyStore(redis: RedisClient, namespace: string, ttlMs: number): HeldKeyStore {
  return {
    async put(targetId, entry) {
      const hash = orderingHeldKey(namespace, targetId);
      await redis.multi().hset(hash, entry.key, JSON.stringify(entry)).pexpire(hash, ttlMs).exec();
    },
    async remove(targetId, key) {
      await redis.hdel(orderingHeldKey(namespace, targetId), key);
    },
  };
}

interface Entry {
  delivery: DeliveryMessageV1;
  shown: HeldOrderKey;
  sinceMs: number;
  /** when its wait ends (epoch ms) */
  untilMs: number;
  /** the head's latest attempt as recorded; null when none was (the gate held it first) */
  recorded: ActivityAttemptV1 | null;
  /** when it was found stuck (ISO 8601) */
  stuckSince: string | null;
}

/** What a head waits for: its next attempt (`head.attempt`) at `untilMs`, after its attempt `recorded`, if any. */
export interface HeadWait {
  reason: string;
  untilMs: number;
  recorded: ActivityAttemptV1 | null;
}

export interface HeldKeysOptions {
  store: HeldKeyStore;
  /** a head waiting longer than this makes its key stuck (ORDERING_STUCK_AFTER_MS) */
  stuckAfterMs: number;
  /** told once per stuck head: the account's event (alert rules) */
  onStuck(delivery: DeliveryMessageV1, entry: HeldOrderKey, heldMs: number): Promise<void>;
  /** records an attempt in the activity log (broker-confirmed): a stuck head's, marked */
  record(attempt: ActivityAttemptV1): Promise<void>;
  logger: Logger;
  registry: Registry;
  now?: () => number;
}

/**
 * The keys this deliverer holds back (docs/ordering.md "Held keys"): a key is held while its head
 * waits — its attempt failed and it waits for the next, or the target gate holds it — and stuck
 * once that has lasted ORDERING_STUCK_AFTER_MS. Bounded by the ordered partitions' prefetch
 * windows (a key is held by one delivery in hand; its entry keeps that delivery and its latest
 * attempt record). Stored for the dashboard when a head starts to wait and when it ends, never
 * per delivery that goes through at once; a store that cannot be written only costs the
 * dashboard its view (logged). A stuck head's row is marked (`marked`, `stuckAttempt`).
 */
export class HeldKeys {
  private readonly entries = new Map<string, Entry>();
  private readonly stuckTotal: Counter;
  private readonly now: () => number;

  constructor(private readonly opts: HeldKeysOptions) {
    this.now = opts.now ?? Date.now;
    const self = this;
    new Gauge({
      name: 'relay_ordering_held_keys',
      help: 'ordering keys this deliverer holds back: their head waits for its next attempt or the target gate (docs/ordering.md), by stuck: true once it has waited ORDERING_STUCK_AFTER_MS',
      labelNames: ['stuck'],
      registers: [opts.registry],
      collect() {
        let stuck = 0;
        for (const e of self.entries.values()) if (e.shown.stuck) stuck += 1;
        this.set({ stuck: 'true' }, stuck);
        this.set({ stuck: 'false' }, self.entries.size - stuck);
      },
    });
    this.stuckTotal = new Counter({
      name: 'relay_ordering_keys_stuck_total',
      help: 'heads of ordering keys that waited longer than ORDERING_STUCK_AFTER_MS (each counted once)',
      registers: [opts.registry],
    });
    this.stuckTotal.inc(0);
  }

  /** the keys held now: for tests and the log */
  get size(): number {
    return this.entries.size;
  }

  /** The head of `chainKey` waits for its attempt `head.attempt` (`wait.reason`: retrying, or the gate's). */
  waiting(chainKey: string, head: DeliveryMessageV1, wait: HeadWait): void {
    const was = this.entries.get(chainKey);
    const same = was !== undefined && was.delivery.delivery_id === head.delivery_id;
    const sinceMs = same ? was.sinceMs : this.now();
    const shown: HeldOrderKey = {
      key: head.order_key ?? '',
      since: new Date(sinceMs).toISOString(),
      event_id: head.event_id,
      attempt: head.attempt,
      reason: wait.reason,
      stuck: same ? was.shown.stuck : false,
    };
    this.entries.set(chainKey, {
      delivery: head,
      shown,
      sinceMs,
      untilMs: wait.untilMs,
      recorded: wait.recorded,
      stuckSince: same ? was.stuckSince : null,
    });
    this.put(head.target_id, shown);
  }

  /**
   * An attempt of the head of `chainKey` as the activity log gets it: once its key was found
   * stuck, marked with the key (docs/ordering.md "Held keys"), so its row says so.
   */
  marked(chainKey: string, attempt: ActivityAttemptV1): ActivityAttemptV1 {
    const e = this.entries.get(chainKey);
    if (!e?.stuckSince || e.delivery.delivery_id !== attempt.delivery_id) return attempt;
    return { ...attempt, ordering: { key: e.shown.key, stuck_since: e.stuckSince } };
  }

  /** The head of `chainKey` ended (delivered, dead-lettered, or left to the next deliverer). */
  ended(chainKey: string): void {
    const was = this.entries.get(chainKey);
    if (!was) return;
    this.entries.delete(chainKey);
    this.opts.store.remove(was.delivery.target_id, was.shown.key).catch((err: Error) => this.unstored(err));
  }

  /** Marks heads that waited past the bound stuck: counted, logged, stored and told once each. */
  sweep(): void {
    const now = this.now();
    for (const e of this.entries.values()) {
      if (e.shown.stuck || now - e.sinceMs < this.opts.stuckAfterMs) continue;
      e.shown = { ...e.shown, stuck: true };
      e.stuckSince = new Date(now).toISOString();
      this.stuckTotal.inc();
      const heldMs = now - e.sinceMs;
      this.opts.logger.warn('ordering key stuck', {
        target_id: e.delivery.target_id,
        endpoint_id: e.delivery.endpoint_id,
        account_id: e.delivery.account_id,
        event_id: e.delivery.event_id,
        attempt: e.shown.attempt,
        reason: e.shown.reason,
        held_ms: heldMs,
      });
      this.put(e.delivery.target_id, e.shown);
      void this.opts.onStuck(e.delivery, e.shown, heldMs);
      this.opts.record(this.stuckAttempt(e)).catch((err: Error) =>
        this.opts.logger.warn('stuck ordering key not marked in the activity log', {
          target_id: e.delivery.target_id,
          event_id: e.delivery.event_id,
          error: err.message,
        }),
      );
    }
  }

  /**
   * The head's row, told its key is stuck: its latest attempt recorded again, marked (the row
   * keeps one record per attempt number, the last written). A head the gate held before any
   * attempt has none: its next attempt stands in, marked as not made, until it is made.
   */
  private stuckAttempt(e: Entry): ActivityAttemptV1 {
    const ordering = { key: e.shown.key, stuck_since: e.stuckSince! };
    if (e.recorded) return { ...e.recorded, ordering };
    return unsentAttempt(e.delivery, {
      attempted_at: e.shown.since,
      state: 'retrying',
      error: `not attempted yet: held by the target gate (${e.shown.reason})`,
      next_attempt_at: new Date(e.untilMs).toISOString(),
      ordering,
    });
  }

  private put(targetId: string, entry: HeldOrderKey): void {
    this.opts.store.put(targetId, entry).catch((err: Error) => this.unstored(err));
  }

  private lastWarning = 0;
  private unstored(err: Error): void {
    if (this.now() - this.lastWarning < 1000) return;
    this.lastWarning = this.now();
    this.opts.logger.warn('held ordering keys not stored', { error: err.message });
  }
}
