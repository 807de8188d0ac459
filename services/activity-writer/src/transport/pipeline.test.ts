import { ACTIVITY_REQUEST_V1 } from '@relay/contracts';
import type { ActivityRequestV1 } from '@relay/contracts';
import type { ActivityWriter, FlushBatch } from '../adapters/activity-store';
import { ActivityPipeline } from './pipeline';

const req = (id: string, over: Partial<ActivityRequestV1> = {}): ActivityRequestV1 => ({
  type: ACTIVITY_REQUEST_V1, event_id: id, account_id: 'a', endpoint_id: 'e', received_at: new Date().toISOString(), method: 'POST', source_ip: '1.2.3.4', outcome: 'ACCEPTED', reason: null, target_count: 0, test: false, ...over,
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
      return { inserted: batch.events.length, updated: 0, late: 0, aggregated: batch.folds.length, payloads: batch.payloads?.length ?? 0 };
    },
    reset: () => void (resets += 1),
  };
  return { writer, batches, failWith: (e: Error | null) => (fail = e), resets: () => resets };
}

const options = { holdMs: 50, maxHeld: 100, batchSize: 100, maxWaitMs: 5, payloadMessagesPerFlush: 16, keepPerMinute: 2, retentionMs: 86_400_000 };

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
    await Promise.all(Array.from({ length: 5 }, (_, i) => p.add(req(`r${i}`, { outcome: 'AUTH_FAILED', reason: 'bad token' }))));
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
    const payload = { event_id: 'e1', account_id: 'a', endpoint_id: 'e', received_at: new Date().toISOString(), request: { method: 'POST', source_ip: '1.2.3.4', headers: {}, query: '' }, payload: { content_type: null, body_base64: '' } };
    await p.addPayloads([payload]);
    expect(w.batches.flatMap((b) => b.payloads ?? [])).toEqual([payload]);
    // one older than the retention period is acknowledged without a write: its hour is gone
    await p.addPayloads([{ ...payload, event_id: 'old', received_at: new Date(Date.now() - 2 * 86_400_000).toISOString() }]);
    expect(w.batches.flatMap((b) => (b.payloads ?? []).map((x) => x.event_id))).toEqual(['e1']);
  });

  it("writes payloads as soon as the payload consumer's prefetch of messages waits, not at the next tick (it gets no more until they are written)", async () => {
    const w = fakeWriter();
    const p = new ActivityPipeline(w.writer, { ...options, maxWaitMs: 60_000, holdMs: 60_000, payloadMessagesPerFlush: 3 });
    const payload = (id: string) => ({ event_id: id, account_id: 'a', endpoint_id: 'e', received_at: new Date().toISOString(), request: { method: 'POST', source_ip: '1.2.3.4', headers: {}, query: '' }, payload: { content_type: null, body_base64: '' } });
    // the tick is 60 s away: these settle only if the third message starts a flush
    await Promise.all(['p1', 'p2', 'p3'].map((id) => p.addPayloads([payload(id)])));
    expect(w.batches.flatMap((b) => (b.payloads ?? []).map((x) => x.event_id)).sort()).toEqual(['p1', 'p2', 'p3']);
  });
});
