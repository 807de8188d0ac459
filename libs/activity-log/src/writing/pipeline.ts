import { activityPartitionOf } from '@relay/contracts';
import type { ActivityMessage, StoredPayloadV1 } from '@relay/contracts';
import type { ActivityLogWriter, ActivityLogWriterOptions } from '../driver';
import type { ActivityWriter } from './flusher';
import { FloodFolder } from './flood';
import type { Fold } from './flood';
import { Holding } from './hold';
import type { EventGroup } from './hold';

/** The writer's options the pipeline reads (the rest are the FerretDB driver's index hold). */
export type PipelineOptions = Omit<ActivityLogWriterOptions, 'indexWaitMs' | 'indexMaxWaitMs' | 'indexPageEntries'>;

/** messages the mean gap follows (an exponential moving mean over about this many) */
const ARRIVALS_AVERAGED = 8;
/** usual gaps of silence after which the queue counts as quiet */
const QUIET_GAPS = 10;

interface Token {
  resolve(): void;
  reject(err: Error): void;
  /**
   * the activity partition of the message's account (every record of a message is of one
   * account); null for payloads, which have no index entries
   */
  partition: number | null;
}

/**
 * Between the consumer and the store: each message's promise settles when the flush that
 * wrote it succeeded and none of its index entries is held back any more — none of that flush's
 * entries of the message's activity partition, which are all the entries its records make (the
 * consumer acks then) — or when a flush failed (the consumer requeues). Flushes run one at a time; the
 * retention sweep runs between them (`exclusive`). Held index entries (IndexWriter) are written
 * by later flushes, or at once when the queue goes quiet (`quietMs`: up to `maxWaitMs`), when `maxHeld`
 * records wait for them, and at shutdown.
 */
export class ActivityPipeline {
  private readonly holding: Holding<Token>;
  private readonly folder: FloodFolder;
  private ready: EventGroup<Token>[] = [];
  private folds: { fold: Fold; token: Token; at: number }[] = [];
  private payloads: { payloads: StoredPayloadV1[]; token: Token; at: number }[] = [];
  private readyCount = 0;
  private inFlightOldest: number | null = null;
  /** written flushes whose index entries are partly held, oldest first */
  private awaiting: { flush: number; tokens: Token[]; oldest: number }[] = [];
  private awaitingCount = 0;
  private flushNo = 0;
  private lastAddAt = 0;
  /** moving mean of the gaps between messages (each counted up to maxWaitMs) */
  private meanGapMs: number;
  private lastFlushAt: number;
  private heldFlushQueued = false;
  private chain: Promise<unknown> = Promise.resolve();
  private flushQueued = false;
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(
    private readonly writer: ActivityWriter,
    private readonly opts: PipelineOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.holding = new Holding(opts.holdMs, opts.maxHeld);
    this.folder = new FloodFolder(opts.keepPerMinute);
    this.lastFlushAt = this.now();
    this.meanGapMs = opts.maxWaitMs;
    // a tenth of the shortest wait, so each wait ends within 10 % of its length: at one tick per
    // wait, the last records after a burst waited up to a second more for their flush and again
    // for the quiet that writes held index entries (the activity lag after a load)
    this.timer = setInterval(() => this.tick(), Math.max(10, Math.min(opts.maxWaitMs, opts.holdMs) / 10));
    this.timer.unref();
  }

  add(message: ActivityMessage): Promise<void> {
    this.noteArrival();
    return new Promise((resolve, reject) => {
      const token = { resolve, reject, partition: activityPartitionOf(message.account_id) };
      const at = Date.parse(message.type === 'relay.activity.request.v1' ? message.received_at : message.attempted_at);
      if (at < this.now() - this.opts.retentionMs) {
        this.opts.onExpired?.(message);
        return resolve();
      }
      const fold = message.type === 'relay.activity.request.v1' ? this.folder.fold(message) : null;
      if (fold) {
        this.folds.push({ fold, token, at });
        this.readyCount += 1;
      } else {
        for (const g of this.holding.add(message, token, this.now())) this.push(g);
      }
      if (this.readyCount >= this.opts.batchSize) this.scheduleFlush();
    });
  }

  /**
   * A message of stored payloads (resend): written with the next flush, never held — a payload
   * does not wait for attempts, and holding large bodies would make held rows cost megabytes.
   * Settles like `add`.
   */
  addPayloads(payloads: StoredPayloadV1[]): Promise<void> {
    this.noteArrival();
    return new Promise((resolve, reject) => {
      const cut = this.now() - this.opts.retentionMs;
      const kept = payloads.filter((p) => Date.parse(p.received_at) >= cut);
      if (kept.length === 0) return resolve();
      this.payloads.push({
        payloads: kept,
        token: { resolve, reject, partition: null },
        at: Math.min(...kept.map((p) => Date.parse(p.received_at))),
      });
      this.readyCount += kept.length;
      if (this.readyCount >= this.opts.batchSize || this.payloads.length >= this.opts.payloadMessagesPerFlush)
        this.scheduleFlush();
    });
  }

  /** Messages taken but not yet written: held, ready, in the flush under way, or with index entries held. */
  unwritten(): number {
    return this.readyCount + this.heldMessages() + this.inFlightCount + this.awaitingCount;
  }

  /** Age in seconds of the oldest message not yet written (0 when none). */
  lagSeconds(): number {
    const times = [
      this.holding.oldest(),
      this.inFlightOldest,
      this.awaiting[0]?.oldest ?? null,
      ...this.ready.map((g) => g.oldest_ms),
      ...this.folds.map((f) => f.at),
      ...this.payloads.map((p) => p.at),
    ].filter((t): t is number => t !== null);
    return times.length ? Math.max(0, (this.now() - Math.min(...times)) / 1000) : 0;
  }

  /** Runs `fn` between flushes. */
  exclusive<R>(fn: () => Promise<R>): Promise<R> {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /**
   * Another writer may have written the records of this activity partition, which this one
   * receives from now on (the broker gave it the partition): the writer forgets what it knows of
   * the store about the partition's accounts at once, before any of those records is added (a
   * flush under way then probes what it no longer knows). What it knows of its other partitions
   * stays: nobody else wrote them.
   */
  resync(partition: number): void {
    this.writer.resync(this.now(), partition);
  }

  /** Page counts the index writer probed in the store so far (each about 2·log2(pages) reads). */
  probes(): number {
    return this.writer.probes();
  }

  /**
   * Every message taken and not yet written is delivered again, perhaps to another writer (the
   * broker connection dropped): drops them all, unwritten, so this process never writes records
   * another writer now owns. Their promises reject; a flush under way finishes.
   */
  abandon(err: Error): void {
    const tokens = [
      ...this.holding.release(this.now(), true).flatMap((g) => g.tokens),
      ...this.ready.flatMap((g) => g.tokens),
      ...this.folds.map((f) => f.token),
      ...this.payloads.map((p) => p.token),
    ];
    this.ready = [];
    this.folds = [];
    this.payloads = [];
    this.readyCount = 0;
    tokens.forEach((t) => t.reject(err));
    this.failAwaiting(err);
  }

  /**
   * Writes everything taken so far of one activity partition, held rows and index entries
   * included (before giving the partition away); resolves once every earlier `add` of the
   * partition settled. What is ready of other partitions is written too (it is the next flush
   * anyway); what they hold stays held: their rows keep waiting for attempts and their sparse
   * pages for more entries, and their messages stay unacknowledged until then.
   */
  async settle(partition: number): Promise<void> {
    for (const g of this.holding.release(
      this.now(),
      true,
      (group) => activityPartitionOf((group.request ?? group.attempts[0]!).account_id) === partition,
    ))
      this.push(g);
    await this.flush();
    await this.writeHeld(partition);
  }

  /** Releases everything held and writes it (shutdown). */
  async drain(): Promise<void> {
    for (const g of this.holding.release(this.now(), true)) this.push(g);
    await this.flush();
    await this.writeHeld();
    clearInterval(this.timer);
  }

  private inFlightCount = 0;

  private heldMessages(): number {
    return this.holding.size; // at least one message each; exact enough for a gauge
  }

  private push(group: EventGroup<Token>): void {
    this.ready.push(group);
    this.readyCount += group.tokens.length;
  }

  private tick(): void {
    const now = this.now();
    for (const g of this.holding.release(now)) this.push(g);
    const quiet = now - this.lastAddAt >= this.quietMs();
    if (this.readyCount > 0) {
      // below a full batch, at most one flush per maxWaitMs while messages keep coming
      if (quiet || now - this.lastFlushAt >= this.opts.maxWaitMs) this.scheduleFlush();
    } else if (this.awaiting.length > 0 && !this.heldFlushQueued && quiet) {
      // the queue went quiet: what is held would otherwise wait for its full time
      this.heldFlushQueued = true;
      void this.writeHeld();
    }
  }

  private noteArrival(): void {
    const now = this.now();
    this.meanGapMs += (Math.min(now - this.lastAddAt, this.opts.maxWaitMs) - this.meanGapMs) / ARRIVALS_AVERAGED;
    this.lastAddAt = now;
  }

  /**
   * How long the queue must be silent to count as quiet: QUIET_GAPS of its usual gaps, from a
   * quarter of maxWaitMs to all of it. After a burst (messages milliseconds apart) the last
   * records and the index entries held for them are written a quarter of a second after the
   * burst ends rather than a second; a queue whose messages come a second or more apart keeps
   * the full wait, so its held entries still gather into pages instead of one page per message.
   */
  private quietMs(): number {
    return Math.min(this.opts.maxWaitMs, Math.max(this.opts.maxWaitMs / 4, QUIET_GAPS * this.meanGapMs));
  }

  /** Writes every index entry held back (of one activity partition, when given), then settles the messages that waited for them. */
  private writeHeld(partition?: number): Promise<void> {
    const run = this.chain.then(async () => {
      if (partition === undefined) this.heldFlushQueued = false;
      if (this.awaiting.length === 0) return;
      try {
        await this.writer.writeHeld({
          now: this.now(),
          flush: this.flushNo,
          ...(partition === undefined ? {} : { partition }),
        });
        this.settleIndexed();
      } catch (err) {
        this.failAwaiting(err as Error);
      }
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  /**
   * Acknowledges the messages of written flushes none of whose index entries of the message's
   * partition is held any more: a flush is done at once when nothing of it is held; else each
   * message waits for its own partition's held entries alone (the ones its records made), so
   * writing one partition's held pages (`settle`) acknowledges that partition's messages.
   */
  private settleIndexed(): void {
    const any = this.writer.heldSince();
    const since = new Map<number, number | null>();
    const heldSince = (p: number): number | null => {
      if (!since.has(p)) since.set(p, this.writer.heldSince(p));
      return since.get(p)!;
    };
    const done: Token[] = [];
    for (const a of this.awaiting) {
      if (any === null || a.flush < any) {
        done.push(...a.tokens);
        a.tokens = [];
        continue;
      }
      a.tokens = a.tokens.filter((t) => {
        const s = t.partition === null ? null : heldSince(t.partition);
        if (s !== null && a.flush >= s) return true;
        done.push(t);
        return false;
      });
    }
    if (done.length === 0) return;
    this.awaiting = this.awaiting.filter((a) => a.tokens.length > 0);
    this.awaitingCount -= done.length;
    done.forEach((t) => t.resolve());
  }

  /** A write failed: what the writer held is forgotten, so every flush waiting for it fails too. */
  private failAwaiting(err: Error): void {
    this.writer.reset();
    for (const a of this.awaiting) a.tokens.forEach((t) => t.reject(err));
    this.awaiting = [];
    this.awaitingCount = 0;
  }

  private scheduleFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    void this.flush();
  }

  private flush(): Promise<void> {
    const run = this.chain.then(async () => {
      this.flushQueued = false;
      this.lastFlushAt = this.now();
      const events = mergeGroups(this.ready);
      const folds = this.folds;
      const payloads = this.payloads;
      const messages = this.readyCount;
      this.ready = [];
      this.folds = [];
      this.payloads = [];
      this.readyCount = 0;
      if (messages === 0) return;
      const tokens = [
        ...events.flatMap((g) => g.tokens),
        ...folds.map((f) => f.token),
        ...payloads.map((p) => p.token),
      ];
      this.inFlightCount = tokens.length;
      const oldest = Math.min(
        ...events.map((g) => g.oldest_ms),
        ...folds.map((f) => f.at),
        ...payloads.map((p) => p.at),
      );
      this.inFlightOldest = oldest;
      const started = performance.now();
      const flush = ++this.flushNo;
      try {
        const clock = { now: this.now(), flush, all: this.awaitingCount >= this.opts.maxHeld };
        const stats = await this.writer.write(
          { events, folds: folds.map((f) => f.fold), payloads: payloads.flatMap((p) => p.payloads) },
          clock,
        );
        this.awaiting.push({ flush, tokens, oldest });
        this.awaitingCount += tokens.length;
        this.settleIndexed();
        this.opts.onFlush?.({ ...stats, messages, duration_ms: Math.round(performance.now() - started) });
      } catch (err) {
        tokens.forEach((t) => t.reject(err as Error));
        this.failAwaiting(err as Error);
      } finally {
        this.inFlightCount = 0;
        this.inFlightOldest = null;
      }
      if (this.readyCount >= this.opts.batchSize || this.payloads.length >= this.opts.payloadMessagesPerFlush)
        this.scheduleFlush();
    });
    this.chain = run.catch(() => undefined);
    return run;
  }
}

/** One group per event id: a flush must touch each row once. */
function mergeGroups<T>(groups: EventGroup<T>[]): EventGroup<T>[] {
  const byId = new Map<string, EventGroup<T>>();
  for (const g of groups) {
    const seen = byId.get(g.event_id);
    if (!seen) {
      byId.set(g.event_id, { ...g, attempts: [...g.attempts], tokens: [...g.tokens] });
      continue;
    }
    seen.request ??= g.request;
    seen.attempts.push(...g.attempts);
    seen.tokens.push(...g.tokens);
    seen.oldest_ms = Math.min(seen.oldest_ms, g.oldest_ms);
  }
  return [...byId.values()];
}

/**
 * A driver's ActivityLogWriter: the pipeline (hold, flood folding, flushes, acks) over the
 * driver's flush writer; retention runs between flushes.
 */
export function pipelineWriter(
  flusher: ActivityWriter,
  opts: PipelineOptions,
  expire: (nowMs: number, retentionMs: number) => Promise<string[]>,
): ActivityLogWriter {
  const pipeline = new ActivityPipeline(flusher, opts);
  return {
    write: async (records) => {
      await Promise.all(records.map((r) => pipeline.add(r)));
    },
    writePayloads: (payloads) => pipeline.addPayloads(payloads),
    expire: (nowMs, retentionMs) => pipeline.exclusive(() => expire(nowMs, retentionMs)),
    unwritten: () => pipeline.unwritten(),
    indexProbes: () => pipeline.probes(),
    lagSeconds: () => pipeline.lagSeconds(),
    drain: () => pipeline.drain(),
    settle: (partition) => pipeline.settle(partition),
    resync: (partition) => pipeline.resync(partition),
    abandon: (err) => pipeline.abandon(err),
  };
}
