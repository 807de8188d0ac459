import type { ThreadShare } from './limits';

/** What the runner knows of one tenant's recent calls. */
interface Use {
  /** sandbox ms of its share it had left at `at`: at most the burst, below zero once a call overdrew it */
  left: number;
  /** when it was last charged, on the shares' clock */
  at: number;
  /** what its next call is expected to take: at least its last call's time */
  expectedMs: number;
  /** its last call ended by its budget (a timeout, the memory limit, the watchdog) */
  ranOut: boolean;
}

/** How deep a tenant may overdraw its share, in seconds of share: how long using an idle thread alone is remembered. */
const DEBT_SECONDS = 10;
/** An entry not charged for this long, its share full again, is forgotten: it says nothing the defaults do not. */
const FORGET_IDLE_MS = 10_000;

/**
 * Each tenant's share of the sandbox thread (docs/decisions/0051-a-share-of-the-sandbox-thread.md),
 * as a token bucket of sandbox ms: it fills at the share's fraction of the time passing, up to the
 * burst, and a call's time is taken from it when the call ends, so one call may overdraw it.
 * Entries are kept least recently charged first and forgotten once idle with their share full
 * (or past `maxTenants`), so memory follows the tenants active lately and each call costs O(1).
 */
export class ThreadShares {
  private readonly uses = new Map<string, Use>();

  constructor(
    private readonly share: ThreadShare,
    /** ms on a monotonic clock */
    private readonly now: () => number,
    private readonly maxTenants = 10_000,
  ) {}

  /** Sandbox ms of its share the tenant has now: the burst when it was not charged lately. */
  left(tenant: string, now = this.now()): number {
    const u = this.uses.get(tenant);
    return u ? this.leftOf(u, now) : this.share.burstMs;
  }

  /**
   * Its calls are refused: its share is used up, and the call that used it up ran out of its
   * budget. A tenant whose calls end by themselves is never refused for its share; it waits
   * behind tenants with more of theirs left (the runner's order).
   */
  refuses(tenant: string): boolean {
    const u = this.uses.get(tenant);
    return u !== undefined && u.ranOut && this.leftOf(u, this.now()) <= 0;
  }

  /** ms until a refused tenant's share is back above zero. */
  backInMs(tenant: string): number {
    return Math.max(0, -this.left(tenant)) / this.share.fraction;
  }

  /** What its next call is expected to take, when its calls were seen lately. */
  expectedMs(tenant: string): number | undefined {
    return this.uses.get(tenant)?.expectedMs;
  }

  /** A call of the tenant ended after `ms` on the thread; `ranOut`: stopped by its budget. */
  charge(tenant: string, ms: number, ranOut: boolean): void {
    const now = this.now();
    const u = this.uses.get(tenant);
    const left = Math.max((u ? this.leftOf(u, now) : this.share.burstMs) - ms, -this.share.burstMs * DEBT_SECONDS);
    // a call longer than the last ones counts at once; shorter ones bring the expectation down by halves
    const expectedMs = u === undefined ? ms : Math.max(ms, (u.expectedMs + ms) / 2);
    // re-inserted: the map's first entry is the one charged least recently
    this.uses.delete(tenant);
    this.uses.set(tenant, { left, at: now, expectedMs, ranOut });
    this.forget(now);
  }

  /** Tenants with an entry (for the bound on memory). */
  get size(): number {
    return this.uses.size;
  }

  private leftOf(u: Use, now: number): number {
    return Math.min(this.share.burstMs, u.left + (now - u.at) * this.share.fraction);
  }

  /** Drops the least recently charged entries while they are idle with their share full, or too many. */
  private forget(now: number): void {
    for (const [tenant, u] of this.uses) {
      const idle = now - u.at >= FORGET_IDLE_MS && this.leftOf(u, now) >= this.share.burstMs;
      if (!idle && this.uses.size <= this.maxTenants) return;
      this.uses.delete(tenant);
    }
  }
}
