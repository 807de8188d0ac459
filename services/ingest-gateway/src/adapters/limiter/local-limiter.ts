import { LRUCache } from '@relay/cache';
import { gcraAdmit, retryAfterSeconds } from '../../domain/limits/gcra';
import type { RateState } from '../../domain/limits/gcra';
import type { LimitDecision, LimitRequest } from '../../domain/ports';

const MAX_ENTRIES = 10_000;

interface QuotaCounter {
  /** the account's count as Redis last reported it */
  known: number;
  /** units counted here and not yet added to Redis (negative: refunds not yet given back) */
  owed: number;
}

/**
 * The per-process limiter used while Redis is unreachable. Same GCRA bucket as the shared
 * one, but each gateway counts alone, so N gateways admit up to N × the rate limit during an
 * outage. The quota continues from the last count Redis reported for the account; the units
 * counted meanwhile are owed to Redis and added there once it is back.
 */
export class LocalLimiter {
  /** bounded: the least recently admitted endpoint's bucket goes first (after a minute it is empty anyway) */
  private readonly rates = new LRUCache<string, RateState>({ max: MAX_ENTRIES });
  private readonly quotas = new Map<string, QuotaCounter>();
  /** keys with owed units, so the hot path can ask "anything owed?" without a scan */
  private readonly owing = new Set<string>();

  admit(req: LimitRequest, quotaKey: string): LimitDecision {
    const quota = this.quotaOf(quotaKey);
    if (quota.known + quota.owed >= req.monthlyQuota) return { admitted: false, limit: 'quota' };
    const rate = gcraAdmit(this.rates.get(req.endpointId) ?? null, req.now.getTime(), req.ratePerMinute);
    if (!rate.admitted) return { admitted: false, limit: 'rate', retryAfterSeconds: retryAfterSeconds(rate.waitMs) };
    this.keepRate(req.endpointId, rate.state);
    this.owe(quotaKey, quota, 1);
    return { admitted: true, counter: 'local' };
  }

  /** Gives a unit back, here or (for a unit counted in Redis that could not be refunded there) later. */
  refund(quotaKey: string): void {
    this.owe(quotaKey, this.quotaOf(quotaKey), -1);
  }

  /** Remembers the count Redis reported, so a later outage continues from it. */
  observe(quotaKey: string, used: number): void {
    this.quotaOf(quotaKey).known = used;
  }

  hasOwed(): boolean {
    return this.owing.size > 0;
  }

  /** Units to add to Redis per quota key, once it is reachable again. */
  owed(): [string, number][] {
    return [...this.owing].map((key) => [key, this.quotaOf(key).owed]);
  }

  /** `units` of `quotaKey` reached Redis, which now reports `used`. */
  settle(quotaKey: string, units: number, used: number): void {
    const quota = this.quotaOf(quotaKey);
    this.owe(quotaKey, quota, -units);
    quota.known = used;
  }

  private owe(key: string, quota: QuotaCounter, units: number): void {
    quota.owed += units;
    if (quota.owed === 0) this.owing.delete(key);
    else this.owing.add(key);
  }

  private keepRate(endpointId: string, state: RateState): void {
    this.rates.set(endpointId, state);
  }

  private quotaOf(key: string): QuotaCounter {
    let quota = this.quotas.get(key);
    if (!quota) {
      // owed units must survive: drop only what Redis already knows
      if (this.quotas.size >= MAX_ENTRIES) for (const [k, q] of this.quotas) if (q.owed === 0) this.quotas.delete(k);
      quota = { known: 0, owed: 0 };
      this.quotas.set(key, quota);
    }
    return quota;
  }
}
