import { ACTIVITY_REQUEST_V1, activityPartitionOf } from '@relay/contracts';
import type { ActivityRequestV1 } from '@relay/contracts';
import type { ActivityWriter, FlushBatch } from './flusher';
import { ActivityPipeline } from './pipeline';

const req = (id: string, over: Partial<ActivityRequestV1> = {}): ActivityRequestV1 => ({
  type: ACTIVITY_REQUEST_V1,
  event_id: id,
  account_id: 'a',
  endpoint_id: 'e',
  received_at: new Date().toISOString(),
  method: 'POST',
  source_ip: '1.2.3.4',
  outcome: 'ACCEPTED',
  reason: null,
  target_count: 0,
  test: false,
  ...over,
});

/** An in-memory writer: records batches, can be made to fail. */
function fakeWriter() {
  const batches: FlushBatch<unknown>[] = [];
  let fail: Error | null = null;
  let resets = 0;
  const writer: ActivityWriter = {
    async write(batch) {
      if (fail) throw fail;
      batches.push(batch);
      return {
        inserted: batch.events.length,
        updated: 0,
        late: 0,
        aggregated: batch.folds.length,
        payloads: batch.payloads?.length ?? 0,
      };
    },
    heldSince: () => null,
    writeHeld: async () => undefined,
    reset: () => void (resets += 1),
    resync: () => undefined,
    probes: () => 0,
  };
  return { writer, batches, failWith: (e: Error | null) => (fail = e), resets: () => resets };
}

const options = {
  holdMs: 50,
  maxHeld: 100,
  batchSize: 100,
  maxWaitMs: 5,
  payloadMessagesPerFlush: 16,
  keepPerMinute: 2,
  retentionMs: 86_400_000,
};

describe('activity pipeline: a message is acknowledged only after the write that holds it', () => {
  it('resolves each message once its flush was written, one group per event id', async () => {
    const w = fakeWriter();
    const p = new ActivityPipeline(w.writer, options);
    await Promise.all([p.add(req('e1')), p.add(req('e2'))]);
    expect(w.batches.flatMap((b) => b.events.map((e) => e.event_id)).sort()).toEqual(['e1', 'e2']);
    expect(p.unwritten()).toBe(0);
    expect(p.lagSeconds()).toBe(0);
  });

  it('rejects every message of a failed flush (so the consumer requeues it) and forgets cached store state', async () => {
    const w = fakeWriter();
    w.failWith(new Error('store down'));
    const p = new ActivityPipeline(w.writer, options);
    const results = await Promise.allSettled([p.add(req('e1')), p.add(req('e2'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(w.resets()).toBeGreaterThan(0);
  });

  it('folds a flood into aggregate updates after the kept rows', async () => {
    const w = fakeWriter();
    const p = new ActivityPipeline(w.writer, options);
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => p.add(req(`r${i}`, { outcome: 'AUTH_FAILED', reason: 'bad token' }))),
    );
    expect(w.batches.flatMap((b) => b.events)).toHaveLength(2);
    expect(w.batches.flatMap((b) => b.folds)).toHaveLength(3);
  });

  it('acknowledges without a write a message older than the retention period', async () => {
    const w = fakeWriter();
    const expired: string[] = [];
    const p = new ActivityPipeline(w.writer, { ...options, onExpired: (m) => expired.push(m.event_id) });
    await p.add(req('old', { received_at: new Date(Date.now() - 2 * 86_400_000).toISOString() }));
    expect(expired).toEqual(['old']);
    expect(w.batches).toHaveLength(0);
  });

  it('reports the age of the oldest message not yet written while a row is held', async () => {
    const w = fakeWriter();
    const p = new ActivityPipeline(w.writer, { ...options, holdMs: 60_000 });
    const written = p.add(req('held', { target_count: 1, received_at: new Date(Date.now() - 3000).toISOString() }));
    await new Promise((r) => setTimeout(r, 20));
    expect(p.unwritten()).toBe(1);
    expect(p.lagSeconds()).toBeGreaterThanOrEqual(3);
    await p.drain();
    await written;
    expect(p.unwritten()).toBe(0);
  });

  it('writes payloads with the next flush, never holding them, and resolves their message once written', async () => {
    const w = fakeWriter();
    const p = new ActivityPipeline(w.writer, { ...options, holdMs: 60_000 });
    const payload = {
      event_id: 'e1',
      account_id: 'a',
      endpoint_id: 'e',
      received_at: new Date().toISOString(),
      request: { method: 'POST', source_ip: '1.2.3.4', headers: {}, query: '' },
      payload: { content_type: null, body_base64: '' },
    };
    await p.addPayloads([payload]);
    expect(w.batches.flatMap((b) => b.payloads ?? [])).toEqual([payload]);
    // one older than the retention period is acknowledged without a write: its hour is gone
    await p.addPayloads([
      { ...payload, event_id: 'old', received_at: new Date(Date.now() - 2 * 86_400_000).toISOString() },
    ]);
    expect(w.batches.flatMap((b) => (b.payloads ?? []).map((x) => x.event_id))).toEqual(['e1']);
  });

  it("writes payloads as soon as the payload consumer's prefetch of messages waits, not at the next tick (it gets no more until they are written)", async () => {
    const w = fakeWriter();
    const p = new ActivityPipeline(w.writer, {
      ...options,
      maxWaitMs: 60_000,
      holdMs: 60_000,
      payloadMessagesPerFlush: 3,
    });
    const payload = (id: string) => ({
      event_id: id,
      account_id: 'a',
      endpoint_id: 'e',
      received_at: new Date().toISOString(),
      request: { method: 'POST', source_ip: '1.2.3.4', headers: {}, query: '' },
      payload: { content_type: null, body_base64: '' },
    });
    // the tick is 60 s away: these settle only if the third message starts a flush
    await Promise.all(['p1', 'p2', 'p3'].map((id) => p.addPayloads([payload(id)])));
    expect(w.batches.flatMap((b) => (b.payloads ?? []).map((x) => x.event_id)).sort()).toEqual(['p1', 'p2', 'p3']);
  });
});

/**
 * A writer that holds every flush's index entries until `writeHeld` (or a write told `all`),
 * as the IndexWriter does with a sparse scope's.
 */
function holdingWriter() {
  const w = fakeWriter();
  let heldSince: number | null = null;
  const clocks: { flush: number; all?: boolean }[] = [];
  let heldWrites = 0;
  let failHeld: Error | null = null;
  const writer: ActivityWriter = {
    async write(batch, clock) {
      const stats = await w.writer.write(batch);
      clocks.push({ flush: clock!.flush, all: clock!.all });
      if (clock!.all) heldSince = null;
      else heldSince ??= clock!.flush;
      return stats;
    },
    heldSince: () => heldSince,
    async writeHeld() {
      if (failHeld) throw failHeld;
      heldWrites += 1;
      heldSince = null;
    },
    reset: () => {
      heldSince = null;
      w.writer.reset();
    },
    resync: () => undefined,
    probes: () => 0,
  };
  return { writer, clocks, heldWrites: () => heldWrites, failHeld: (e: Error) => (failHeld = e), resets: w.resets };
}

describe('activity pipeline: when a batch below batchSize is written (BATCH_MAX_WAIT_MS)', () => {
  const tick = () => new Promise((r) => setTimeout(r, 40)); // several ticks: one every maxWaitMs / 10

  it('writes a ready record once maxWaitMs have passed since the last flush, and not before', async () => {
    const w = fakeWriter();
    let now = Date.now();
    const p = new ActivityPipeline(w.writer, { ...options, maxWaitMs: 100, holdMs: 100, now: () => now });
    void p.add(req('e1'));
    now += 50; // the queue is still busy: e2 arrives before the wait is over
    void p.add(req('e2'));
    await tick();
    expect(w.batches).toHaveLength(0);
    now += 50; // 100 ms since the pipeline started: one flush with both
    await tick();
    expect(w.batches.map((b) => b.events.map((e) => e.event_id))).toEqual([['e1', 'e2']]);
    await p.drain();
  });

  it('writes a row released from holding at once when the queue has been quiet for maxWaitMs, however recent the last flush', async () => {
    const w = fakeWriter();
    let now = Date.now();
    const p = new ActivityPipeline(w.writer, { ...options, maxWaitMs: 100, holdMs: 150, now: () => now });
    // rows waiting for one delivery's first attempt each, which never comes: released after holdMs
    void p.add(req('e1', { target_count: 1 }));
    now += 50;
    void p.add(req('e2', { target_count: 1 }));
    now += 100; // e1 released; 150 ms since the pipeline started
    await tick();
    expect(w.batches.map((b) => b.events.map((e) => e.event_id))).toEqual([['e1']]);
    now += 50; // e2 released 50 ms after that flush, the queue quiet for 150 ms: no second wait
    await tick();
    expect(w.batches.map((b) => b.events.map((e) => e.event_id))).toEqual([['e1'], ['e2']]);
    await p.drain();
  });
});

const settled = async (p: Promise<unknown>): Promise<string> =>
  Promise.race([
    p.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise<string>((r) => setTimeout(() => r('pending'), 30)),
  ]);

describe('activity pipeline: index entries held back for later flushes (ACTIVITY_INDEX_WAIT_MS)', () => {
  it('acknowledges a flush only once none of its index entries is held, and writes them once the queue is quiet for maxWaitMs', async () => {
    const w = holdingWriter();
    let now = Date.now();
    const p = new ActivityPipeline(w.writer, { ...options, batchSize: 1, maxWaitMs: 1000, holdMs: 50, now: () => now });
    const first = p.add(req('e1')); // batchSize 1: written at once, its index entries held
    await new Promise((r) => setTimeout(r, 120)); // ticks pass, but the queue has been quiet for less than maxWaitMs
    expect(w.clocks).toEqual([{ flush: 1, all: false }]);
    expect(await settled(first)).toBe('pending');
    expect(p.unwritten()).toBe(1);
    now += 1000;
    await new Promise((r) => setTimeout(r, 120));
    expect(await settled(first)).toBe('resolved');
    expect(w.heldWrites()).toBe(1);
    expect(p.unwritten()).toBe(0);
    await p.drain();
  });

  it('after a burst (messages milliseconds apart) the queue counts as quiet after a quarter of maxWaitMs; after sparse messages, only after all of it', async () => {
    const w = holdingWriter();
    let now = Date.now();
    const p = new ActivityPipeline(w.writer, { ...options, batchSize: 1, maxWaitMs: 400, holdMs: 400, now: () => now });
    const burst: Promise<void>[] = [];
    for (let i = 0; i < 40; i++) {
      burst.push(p.add(req(`b${i}`)));
      now += 2;
    }
    await new Promise((r) => setTimeout(r, 60));
    expect(w.heldWrites()).toBe(0);
    now += 99; // 100 ms after the burst's last message: a quarter of maxWaitMs
    await new Promise((r) => setTimeout(r, 60));
    expect(w.heldWrites()).toBe(1);
    expect(await Promise.all(burst.map(settled))).toEqual(burst.map(() => 'resolved'));

    // messages maxWaitMs apart: the mean gap grows back, and quiet means maxWaitMs again
    for (let i = 0; i < 20; i++) {
      now += 400;
      void p.add(req(`s${i}`));
    }
    await new Promise((r) => setTimeout(r, 60));
    const held = w.heldWrites();
    now += 399;
    await new Promise((r) => setTimeout(r, 60));
    expect(w.heldWrites()).toBe(held);
    now += 1;
    await new Promise((r) => setTimeout(r, 60));
    expect(w.heldWrites()).toBe(held + 1);
    await p.drain();
  });

  it('drain (shutdown) writes what is held and acknowledges it', async () => {
    const w = holdingWriter();
    const p = new ActivityPipeline(w.writer, { ...options, batchSize: 1, maxWaitMs: 60_000 });
    const first = p.add(req('e1'));
    await new Promise((r) => setTimeout(r, 20));
    expect(await settled(first)).toBe('pending');
    await p.drain();
    expect(await settled(first)).toBe('resolved');
    expect(w.heldWrites()).toBe(1);
  });

  it('a failed write of held entries fails every flush waiting for them (their messages are redelivered and written again)', async () => {
    const w = holdingWriter();
    const p = new ActivityPipeline(w.writer, { ...options, maxWaitMs: 30 });
    w.failHeld(new Error('store down'));
    const results = await Promise.allSettled([p.add(req('e1')), p.add(req('e2'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(w.resets()).toBeGreaterThan(0);
    expect(p.unwritten()).toBe(0);
    await p.drain().catch(() => undefined);
  });

  it('tells the next write to write everything held once maxHeld records wait for it (bounds unacknowledged messages)', async () => {
    const w = holdingWriter();
    const p = new ActivityPipeline(w.writer, { ...options, maxHeld: 3, batchSize: 3, maxWaitMs: 60_000 });
    const waiting = [p.add(req('a1')), p.add(req('a2')), p.add(req('a3'))];
    await new Promise((r) => setTimeout(r, 20));
    expect(w.clocks.at(-1)).toMatchObject({ all: false });
    expect(await settled(Promise.all(waiting))).toBe('pending');
    const next = [p.add(req('b1')), p.add(req('b2')), p.add(req('b3'))];
    await Promise.all([...waiting, ...next]);
    expect(w.clocks.at(-1)).toMatchObject({ all: true });
    await p.drain();
  });
});

/**
 * A writer that holds each flush's index entries per activity partition (the partition of the
 * rows' accounts) until `writeHeld` of that partition or of all, as the IndexWriter does.
 */
function partitionHoldingWriter() {
  const w = fakeWriter();
  const heldSince = new Map<number, number>();
  const heldWrites: (number | 'all')[] = [];
  const writer: ActivityWriter = {
    async write(batch, clock) {
      const stats = await w.writer.write(batch);
      for (const e of batch.events) {
        const p = activityPartitionOf((e.request ?? e.attempts[0]!).account_id);
        if (!heldSince.has(p)) heldSince.set(p, clock!.flush);
      }
      return stats;
    },
    heldSince: (p) =>
      p === undefined ? (heldSince.size ? Math.min(...heldSince.values()) : null) : (heldSince.get(p) ?? null),
    async writeHeld(clock) {
      heldWrites.push(clock.partition ?? 'all');
      if (clock.partition === undefined) heldSince.clear();
      else heldSince.delete(clock.partition);
    },
    reset: () => heldSince.clear(),
    resync: () => undefined,
    probes: () => 0,
  };
  return { writer, batches: w.batches, heldWrites };
}

describe('activity pipeline: giving one partition away', () => {
  // accounts 'a' and 'b' are in different activity partitions
  const [pa, pb] = [activityPartitionOf('a'), activityPartitionOf('b')];

  it("settle of a partition writes its held rows and index entries and acknowledges its messages; the other partition's stay held and unacknowledged", async () => {
    expect(pa).not.toBe(pb);
    const w = partitionHoldingWriter();
    const p = new ActivityPipeline(w.writer, { ...options, holdMs: 60_000, maxWaitMs: 60_000 });
    // flushed rows of both partitions, their index entries held
    const written = [p.add(req('a1', { account_id: 'a' })), p.add(req('b1', { account_id: 'b' }))];
    // accepted requests waiting for their first attempts (held rows), one per partition
    const heldA = p.add(req('a2', { account_id: 'a', target_count: 1 }));
    const heldB = p.add(req('b2', { account_id: 'b', target_count: 1 }));
    await p.settle(pa);
    expect(await settled(written[0]!)).toBe('resolved');
    expect(await settled(heldA)).toBe('resolved');
    // b's flushed row was written with the same flush, but its entries are still held: not acknowledged
    expect(await settled(written[1]!)).toBe('pending');
    expect(await settled(heldB)).toBe('pending');
    expect(w.heldWrites).toEqual([pa]);
    const rows = w.batches.flatMap((b) => b.events.map((e) => e.event_id)).sort();
    expect(rows).toEqual(['a1', 'a2', 'b1']);
    await p.drain();
    expect(await settled(written[1]!)).toBe('resolved');
    expect(await settled(heldB)).toBe('resolved');
  });

  it("a message waits only for its own partition's held entries: writing one partition's acknowledges its messages of every flush", async () => {
    const w = partitionHoldingWriter();
    const p = new ActivityPipeline(w.writer, { ...options, batchSize: 2, maxWaitMs: 60_000 });
    const first = [p.add(req('a1', { account_id: 'a' })), p.add(req('b1', { account_id: 'b' }))];
    const second = [p.add(req('a2', { account_id: 'a' })), p.add(req('b2', { account_id: 'b' }))];
    await new Promise((r) => setTimeout(r, 20));
    expect(await Promise.all([...first, ...second].map(settled))).toEqual(['pending', 'pending', 'pending', 'pending']);
    await p.settle(pb);
    expect(await Promise.all([...first, ...second].map(settled))).toEqual([
      'pending',
      'resolved',
      'pending',
      'resolved',
    ]);
    expect(p.unwritten()).toBe(2);
    await p.drain();
    expect(await Promise.all([...first, ...second].map(settled))).toEqual([
      'resolved',
      'resolved',
      'resolved',
      'resolved',
    ]);
  });
});
