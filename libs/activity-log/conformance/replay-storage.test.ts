import {
  collectionsOf,
  PageCounts,
  endpointScope,
  groupScope,
  hourOf,
  listIndexed,
  payloadId,
  sweepExpired,
} from '../../../test/support/activity-log-internals';
import { deliveryIdFor, newEventId, resendDeliveryId, resendTag } from '@relay/contracts';
import type { StoredPayloadV1 } from '@relay/contracts';
import type { IndexEntry } from '../../../test/support/activity-log-internals';
import { DAY_MS, attempt, fileStore, pipelineOn, request, row } from './fixtures';

/**
 * What resend and bulk retry need of the activity log, on the real MongoDB-wire store: the
 * accepted payload kept beside its row and dropped with it, a resend's delivery recorded on the
 * same row, and a listing that gets through bursts of status changes.
 */
const store = fileStore('replaystore');

const payloadOf = (eventId: string, receivedAt: string, body: string): StoredPayloadV1 => ({
  event_id: eventId,
  account_id: 'acc_1',
  endpoint_id: 'ep_1',
  received_at: receivedAt,
  request: { method: 'POST', source_ip: '203.0.113.7', headers: { 'x-shop': 'north' }, query: 'a=1' },
  payload: { content_type: 'application/json', body_base64: Buffer.from(body).toString('base64') },
});

describe('stored payloads', () => {
  it('are written with the flush, read back by event id, and a redelivered copy changes nothing', async () => {
    const at = new Date().toISOString();
    const id = newEventId(Date.parse(at));
    const { pipeline, write, flushes } = pipelineOn(store());
    await Promise.all([
      write([request(id, { received_at: at, target_count: 0 })]),
      pipeline.addPayloads([payloadOf(id, at, '{"order":1}')]),
    ]);
    expect(flushes).toEqual([expect.objectContaining({ inserted: 1, payloads: 1 })]);
    expect(await collectionsOf(store()).payload(id)).toEqual({
      request: { method: 'POST', source_ip: '203.0.113.7', headers: { 'x-shop': 'north' }, query: 'a=1' },
      payload: { content_type: 'application/json', body_base64: Buffer.from('{"order":1}').toString('base64') },
    });
    await pipeline.addPayloads([payloadOf(id, at, '{"order":2}')]);
    expect(Buffer.from((await collectionsOf(store()).payload(id))!.payload.body_base64, 'base64').toString()).toBe(
      '{"order":1}',
    );
  });

  it("are not in the rows' collection: the row reads the same, and its hour's row reads never scan payload bytes", async () => {
    const at = new Date().toISOString();
    const id = newEventId(Date.parse(at));
    const { pipeline, write } = pipelineOn(store());
    await Promise.all([
      write([request(id, { received_at: at, target_count: 0 })]),
      pipeline.addPayloads([payloadOf(id, at, '{}')]),
    ]);
    expect(await row(store(), id)).toMatchObject({ id, outcome: 'ACCEPTED', status: 'completed', deliveries: [] });
    expect((await collectionsOf(store()).rowWithLate(id))!.late).toBe(0);
    expect(await collectionsOf(store()).rows(hourOf(Date.now())).get(payloadId(id))).toBeNull();
  });

  it("are removed by retention with their row: the expired hour's partitions are dropped, payloads' included", async () => {
    const old = Date.now() - 31 * DAY_MS;
    const at = new Date(old).toISOString();
    const id = newEventId(old);
    const { pipeline, write } = pipelineOn(store(), { retentionMs: 32 * DAY_MS });
    await Promise.all([
      write([request(id, { received_at: at, target_count: 0 })]),
      pipeline.addPayloads([payloadOf(id, at, '{}')]),
    ]);
    expect(await collectionsOf(store()).payloads(hourOf(old)).get(payloadId(id))).not.toBeNull();
    const swept = await sweepExpired(collectionsOf(store()), Date.now(), 30 * DAY_MS);
    expect(swept.dropped).toEqual(
      expect.arrayContaining([
        `activity_payloads_${hourOf(old).replace(/[-T]/g, '')}`,
        `activity_rows_${hourOf(old).replace(/[-T]/g, '')}`,
      ]),
    );
    expect(await collectionsOf(store()).payload(id)).toBeNull();
    expect(await collectionsOf(store()).row(id)).toBeNull();
  });
});

describe('a resend on the row', () => {
  it('is a second delivery of the target on the same row, and a delivered resend turns a failed row Completed', async () => {
    const id = newEventId(Date.now());
    const first = deliveryIdFor(id, 'tg_1');
    const again = resendDeliveryId(id, 'tg_1', resendTag(Date.now()));
    const { write } = pipelineOn(store());
    await write([request(id, { target_count: 1 }), attempt(id, 'tg_1', 1, 'failed', { delivery_id: first })]);
    expect((await row(store(), id))!.status).toBe('errors');
    await write([attempt(id, 'tg_1', 1, 'delivered', { delivery_id: again })]);
    const r = (await row(store(), id))!;
    expect(r.deliveries.map((d) => [d.delivery_id, d.state])).toEqual([
      [first, 'failed'],
      [again, 'delivered'],
    ]);
    expect([r.status, r.last_error]).toEqual(['completed', null]);
  });
});

describe('listing through a burst of status changes (bulk retry walks the Errors group while its rows complete)', () => {
  it('a call whose hour has more change pages than its budget still moves on, so following next_cursor reaches every entry', async () => {
    const ids = Array.from({ length: 30 }, () => newEventId(Date.now()));
    const { write } = pipelineOn(store());
    // 30 failed rows, then 30 flushes each completing one: 30 change pages in the Errors scope
    await write(
      ids.flatMap((id) => [
        request(id, { target_count: 1, endpoint_id: 'ep_burst' }),
        attempt(id, 'tg_1', 1, 'failed', { delivery_id: deliveryIdFor(id, 'tg_1'), endpoint_id: 'ep_burst' }),
      ]),
    );
    for (const id of ids.slice(0, 15))
      await write([
        attempt(id, 'tg_1', 1, 'delivered', {
          delivery_id: resendDeliveryId(id, 'tg_1', resendTag(Date.now())),
          endpoint_id: 'ep_burst',
        }),
      ]);
    const seen: IndexEntry[] = [];
    let cursor = null;
    for (let calls = 0; calls < 100; calls++) {
      const page: Awaited<ReturnType<typeof listIndexed>> = await listIndexed(collectionsOf(store()), {
        scope: groupScope(endpointScope('ep_burst'), 'errors'),
        fromMs: Date.now() - DAY_MS,
        toMs: Date.now() + DAY_MS,
        cursor,
        limit: 5,
        matches: (e) => e.status === 'errors',
        budget: 8,
        counts: new PageCounts(),
      });
      seen.push(...page.entries);
      if (!page.next) break;
      cursor = page.next;
    }
    expect(seen.map((e) => e.event_id).sort()).toEqual(ids.slice(15).sort());
  });

  it('a call that ends a page at its budget continues with the next page, not the same one again', async () => {
    const ids = Array.from({ length: 24 }, () => newEventId(Date.now()));
    const { write } = pipelineOn(store());
    const on = { endpoint_id: 'ep_pages' };
    // six flushes: six entry pages; then twelve flushes of changes
    for (let i = 0; i < 24; i += 4)
      await write(
        ids
          .slice(i, i + 4)
          .flatMap((id) => [
            request(id, { target_count: 1, ...on }),
            attempt(id, 'tg_1', 1, 'failed', { delivery_id: deliveryIdFor(id, 'tg_1'), ...on }),
          ]),
      );
    for (const id of ids.slice(0, 12))
      await write([
        attempt(id, 'tg_1', 1, 'delivered', {
          delivery_id: resendDeliveryId(id, 'tg_1', resendTag(Date.now())),
          ...on,
        }),
      ]);
    const seen: string[] = [];
    let cursor = null;
    let calls = 0;
    for (; calls < 100; calls++) {
      const page: Awaited<ReturnType<typeof listIndexed>> = await listIndexed(collectionsOf(store()), {
        scope: endpointScope('ep_pages'),
        fromMs: Date.now() - DAY_MS,
        toMs: Date.now() + DAY_MS,
        cursor,
        limit: 200,
        matches: () => true,
        budget: 8,
        counts: new PageCounts(),
      });
      seen.push(...page.entries.map((e) => e.event_id));
      if (!page.next) break;
      cursor = page.next;
    }
    expect(seen.sort()).toEqual([...ids].sort());
    expect(calls).toBeLessThan(20);
  });
});
