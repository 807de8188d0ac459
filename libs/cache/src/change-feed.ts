import type { RedisClient } from './redis';
import { cacheChangesChannel, cacheChangesSeqKey, decodeCacheChange } from '@relay/contracts';
import type { NumberedCacheChange } from '@relay/contracts';
import type { Logger } from '@relay/logging';

/** Why a cache must revalidate what it holds. */
export type ResyncReason = 'missed' | 'deaf' | 'resubscribed' | 'sweep';

interface ChangeFeedOptions {
  /** a connection of its own: once subscribed it can run no other command */
  subscriber: RedisClient;
  /** reads the change counter */
  commands: RedisClient;
  namespace: string;
  logger: Logger;
  /** how often the counter is read and the subscription checked (CACHE_CHECK_INTERVAL_MS) */
  checkIntervalMs: number;
  /** a full revalidation this often even when nothing was missed (CACHE_SWEEP_INTERVAL_MS); 0 = never */
  sweepIntervalMs: number;
}

/**
 * Follows the numbered change announcements (@relay/contracts cache-changes.ts) for the caches
 * of one process, and says when what they hold can no longer be trusted:
 *
 * - `missed`: an announcement's number skips one, or the counter stayed ahead of (or, after a
 *   Redis restart, behind) the last number heard for two checks in a row;
 * - `deaf`: the subscription is down or the counter cannot be read — repeated every check while
 *   it lasts, since nothing is heard meanwhile;
 * - `resubscribed`: heard again after being deaf (what changed meanwhile was not heard);
 * - `sweep`: the periodic safety net against a change whose announcement never went out.
 *
 * While `isLive()` a cache may keep entries without limit: every change reaches it within a
 * message's latency.
 */
export class ChangeFeed {
  private readonly changeHandlers: ((change: NumberedCacheChange) => void)[] = [];
  private readonly resyncHandlers: ((why: ResyncReason) => void)[] = [];
  private lastSeq = 0;
  /** the counter value seen ahead at the previous check, if any */
  private suspect: number | null = null;
  private live = false;
  /** the feed was live once: becoming live again is worth a log line, the first time is not */
  private wasLive = false;
  private checking = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly opts: ChangeFeedOptions) {}

  onChange(handler: (change: NumberedCacheChange) => void): void {
    this.changeHandlers.push(handler);
  }

  onResync(handler: (why: ResyncReason) => void): void {
    this.resyncHandlers.push(handler);
  }

  /** subscribed and the counter readable at the last check: announcements are being heard */
  isLive(): boolean {
    return this.live && this.opts.subscriber.status === 'ready';
  }

  async start(): Promise<void> {
    const { subscriber, namespace } = this.opts;
    const channel = cacheChangesChannel(namespace);
    subscriber.on('message', (ch: string, text: string) => {
      if (ch === channel) this.heard(text);
    });
    await subscriber.subscribe(channel);
    // unreadable now (the command connection still connecting): deaf until the first check reads it
    const counter = await this.readCounter().catch(() => null);
    this.lastSeq = counter ?? 0;
    this.live = counter !== null;
    this.wasLive = this.live;
    this.timers.push(setInterval(() => void this.check(), this.opts.checkIntervalMs).unref());
    if (this.opts.sweepIntervalMs > 0)
      this.timers.push(setInterval(() => this.resync('sweep'), this.opts.sweepIntervalMs).unref());
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  private heard(text: string): void {
    const change = decodeCacheChange(text);
    if (!change) return;
    if (change.seq > this.lastSeq + 1) this.resync('missed');
    this.lastSeq = Math.max(this.lastSeq, change.seq);
    for (const h of this.changeHandlers) h(change);
  }

  /** One check at a time: a slow Redis must not pile them up. */
  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const counter = this.opts.subscriber.status === 'ready' ? await this.readCounter().catch(() => null) : null;
      if (counter === null) return this.deaf();
      if (!this.live) {
        this.live = true;
        this.lastSeq = counter;
        this.suspect = null;
        if (this.wasLive) this.opts.logger.info('cache change announcements heard again; revalidating cached settings');
        this.wasLive = true;
        return this.resync('resubscribed');
      }
      if (counter === this.lastSeq) {
        this.suspect = null;
        return;
      }
      // one check's grace: the counter is incremented just before its message is delivered
      if (this.suspect !== counter) {
        this.suspect = counter;
        return;
      }
      this.lastSeq = counter;
      this.suspect = null;
      this.resync('missed');
    } finally {
      this.checking = false;
    }
  }

  private deaf(): void {
    if (this.live)
      this.opts.logger.warn(
        'cache change announcements not heard (Redis unreachable); cached settings are revalidated from the store every check until they are',
      );
    this.live = false;
    this.resync('deaf');
  }

  private async readCounter(): Promise<number> {
    return Number((await this.opts.commands.get(cacheChangesSeqKey(this.opts.namespace))) ?? 0);
  }

  private resync(why: ResyncReason): void {
    for (const h of this.resyncHandlers) h(why);
  }
}
