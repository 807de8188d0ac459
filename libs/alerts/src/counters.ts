import type { RedisClient } from '@relay/cache';

/**
 * Per-minute counters the alert detector reads (docs/alerts.md "Counters"): the gateway counts
 * each endpoint's answered requests by outcome, the deliverers each target's attempts by
 * result. A process adds to an in-memory tally (O(1) per event, no Redis round trip on the
 * event's path) and writes it to Redis every `flushMs` — one HINCRBY per endpoint-or-target,
 * minute and field that moved, whatever the traffic — so several instances sum up in Redis.
 *
 * `${ns}:alert-count:${subject}:${minute}` is a hash per subject (`ep:<endpoint_id>`,
 * `tg:<target_id>`) and UTC minute (epoch minutes); fields are outcome codes, or `ok` / `fail`
 * for attempts. Each key expires COUNT_TTL_S after its last write: longer than the longest
 * window a rule may ask for (MAX_WINDOW_MINUTES).
 */
const MAX_WINDOW_MINUTES = 60;
export const COUNT_TTL_S = (MAX_WINDOW_MINUTES + 10) * 60;

export const countKey = (namespace: string, subject: string, minute: number): string =>
  `${namespace}:alert-count:${subject}:${minute}`;
export const endpointSubject = (endpointId: string): string => `ep:${endpointId}`;
export const targetSubject = (targetId: string): string => `tg:${targetId}`;
export const minuteOf = (ms: number): number => Math.floor(ms / 60_000);

interface CounterBufferOptions {
  redis: RedisClient;
  namespace: string;
  /** how often the tally is written (default 5 s): how late a detector may see an event */
  flushMs?: number;
  /** distinct (subject, minute, field) entries held before an early write: bounds memory (default 10,000) */
  maxEntries?: number;
  onError?: (err: Error) => void;
  now?: () => number;
}

/** One process's tally of per-minute counts, written to Redis in the background. */
export class CounterBuffer {
  private tally = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly flushMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly opts: CounterBufferOptions) {
    this.flushMs = opts.flushMs ?? 5000;
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  /** Counts one occurrence of `field` for `subject` in the current minute. */
  add(subject: string, field: string): void {
    // `\n` separates the parts: no subject or field contains one (ids and outcome codes)
    const entry = `${subject}\n${minuteOf(this.now())}\n${field}`;
    this.tally.set(entry, (this.tally.get(entry) ?? 0) + 1);
    if (this.tally.size >= this.maxEntries) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes what is tallied; resolves once Redis took it (or refused it: counts are best-effort, logged). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.tally.size === 0) return this.writing;
    const batch = this.tally;
    this.tally = new Map();
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: Map<string, number>): Promise<void> {
    const { redis, namespace } = this.opts;
    const fresh = new Set<string>();
    const writes: Promise<unknown>[] = [];
    for (const [entry, n] of batch) {
      const [subject, minute, field] = entry.split('\n') as [string, string, string];
      const key = countKey(namespace, subject, Number(minute));
      writes.push(redis.hincrby(key, field, n));
      fresh.add(key);
    }
    for (const key of fresh) writes.push(redis.expire(key, COUNT_TTL_S));
    try {
      await Promise.all(writes);
    } catch (err) {
      this.opts.onError?.(err as Error);
    }
  }
}

/** The counts of `subject` over the last `minutes` whole and current minutes, summed per field. */
export async function readWindow(
  redis: RedisClient,
  namespace: string,
  subject: string,
  minutes: number,
  nowMs: number,
): Promise<Record<string, number>> {
  const last = minuteOf(nowMs);
  const keys = Array.from({ length: Math.min(minutes, MAX_WINDOW_MINUTES) }, (_, i) =>
    countKey(namespace, subject, last - i),
  );
  const hashes = await Promise.all(keys.map((k) => redis.hgetall(k)));
  const sum: Record<string, number> = {};
  for (const h of hashes) for (const [field, n] of Object.entries(h)) sum[field] = (sum[field] ?? 0) + Number(n);
  return sum;
}
