import { activityPartitionOf } from '@relay/contracts';
import { openActivityLog } from '@relay/activity-log';
import type { ActivityListQuery } from '@relay/activity-log';
import { collectionsOf, createActivityWriter } from '../../../test/support/activity-log-internals';
import type { ActivityWriter } from '../../../test/support/activity-log-internals';
import { attempt, eventId, fileStore, listQuery, request } from './fixtures';

/**
 * A partition changing writers (docs/architecture.md "Partitioned writing"), on the real store:
 * writer B, which has been writing other accounts since before the hour, is given the partition
 * writer A wrote this hour. After `resync` B numbers its pages after A's and records the hour's
 * counts (entry and change pages) from the store, not from what it alone wrote, so a reader that
 * takes the recorded counts finds A's pages and B's. A hand-over costs the partition handed over
 * alone: B keeps counting its other partitions' scopes without probing the store.
 */
const store = fileStore('takeover');
const ACCOUNT = 'acc_taken';
const ENDPOINT = 'ep_taken';

const flush = (
  writer: ActivityWriter,
  at: number,
  n: number,
  events: { id: string; request?: boolean; attempts?: ReturnType<typeof attempt>[] }[],
) =>
  writer.write(
    {
      events: events.map((e) => ({
        event_id: e.id,
        request:
          e.request === false
            ? null
            : request(e.id, {
                account_id: ACCOUNT,
                endpoint_id: ENDPOINT,
                received_at: new Date(at).toISOString(),
                target_count: 1,
              }),
        attempts: e.attempts ?? [],
        tokens: [],
        oldest_ms: at,
      })),
      folds: [],
    },
    { now: at, flush: n },
  );

const query = (over: Partial<ActivityListQuery>): ActivityListQuery => listQuery(ACCOUNT, over);

describe('a partition taken over by another writer', () => {
  it("the new writer numbers pages after the old one's and records the hour's counts from the store: every row listed once, a status change found", async () => {
    const hour = Date.parse('2026-11-20T10:00:00.000Z');
    const t0 = hour + 10 * 60_000;
    const a = createActivityWriter(collectionsOf(store()));
    const b = createActivityWriter(collectionsOf(store()));
    // B has been writing since before the hour (another account: another partition)
    const other = eventId('b_other', hour - 2 * 3_600_000);
    await b.write(
      {
        events: [
          {
            event_id: other,
            request: request(other, {
              account_id: 'acc_other',
              endpoint_id: 'ep_other',
              received_at: new Date(hour - 2 * 3_600_000).toISOString(),
              target_count: 0,
            }),
            attempts: [],
            tokens: [],
            oldest_ms: 0,
          },
        ],
        folds: [],
      },
      { now: hour - 2 * 3_600_000, flush: 1 },
    );

    // A writes the partition: three rows, then one of them completes (a change page)
    const [r1, r2, r3] = [eventId('a1', t0), eventId('a2', t0 + 1_000), eventId('a3', t0 + 2_000)];
    await flush(a, t0, 1, [{ id: r1 }]);
    await flush(a, t0 + 1_000, 2, [{ id: r2 }]);
    await flush(a, t0 + 2_000, 3, [{ id: r3 }]);
    await flush(a, t0 + 3_000, 4, [
      {
        id: r1,
        request: false,
        attempts: [
          attempt(r1, 'tg_1', 1, 'delivered', {
            account_id: ACCOUNT,
            endpoint_id: ENDPOINT,
            attempted_at: new Date(t0 + 3_000).toISOString(),
          }),
        ],
      },
    ]);

    // A is gone; B is given the partition
    b.resync(t0 + 4_000, activityPartitionOf(ACCOUNT));
    const r4 = eventId('b4', t0 + 4_000);
    await flush(b, t0 + 4_000, 2, [{ id: r4 }]);
    // B leaves the hour behind: it records the hour's counts in the directory
    const later = hour + 3 * 3_600_000;
    const r5 = eventId('b5', later);
    await flush(b, later, 3, [{ id: r5 }]);

    const log = openActivityLog(store().connection, 'ferretdb');
    const all = (await log.list(query({ endpointId: ENDPOINT, fromMs: hour, toMs: hour + 3_600_000 }))).rows.map(
      (r) => r.event_id,
    );
    expect(all).toEqual([r4, r3, r2, r1]);
    const completed = (
      await log.list(query({ endpointId: ENDPOINT, status: 'completed', fromMs: hour, toMs: hour + 3_600_000 }))
    ).rows.map((r) => r.event_id);
    expect(completed).toEqual([r1]);
    const account = (await log.list(query({ fromMs: hour, toMs: hour + 3_600_000 }))).rows.map((r) => r.event_id);
    expect(account).toEqual([r4, r3, r2, r1]);

    // the recorded counts are the store's: A's three entry pages and B's, A's change page
    const dir = await collectionsOf(store()).dir('2026-11-20').get(`e:${ENDPOINT}`);
    expect(dir?.page_count?.['10']).toBe(4);
    expect(dir?.change_count?.['10']).toBe(1);
  });

  it("a writer given one partition keeps counting its other partitions without probes, and numbers the taken one's pages after the writer before it", async () => {
    const hour = Date.parse('2026-11-20T14:00:00.000Z');
    const t0 = hour + 5 * 60_000;
    const KEPT = 'acc_kept';
    const TAKEN = 'acc_given';
    expect(activityPartitionOf(KEPT)).not.toBe(activityPartitionOf(TAKEN));
    const one = (account: string, label: string, at: number) => {
      const id = eventId(label, at);
      return {
        id,
        group: {
          event_id: id,
          request: request(id, {
            account_id: account,
            endpoint_id: `ep_${account}`,
            received_at: new Date(at).toISOString(),
            target_count: 0,
            source_ip: '198.51.100.4',
          }),
          attempts: [],
          tokens: [],
          oldest_ms: at,
        },
      };
    };
    const a = createActivityWriter(collectionsOf(store()));
    const b = createActivityWriter(collectionsOf(store()));
    // B has written KEPT's partition since before the hour, and in the hour
    const ids: Record<string, string[]> = { [KEPT]: [], [TAKEN]: [] };
    const write = async (w: ActivityWriter, account: string, label: string, at: number, n: number) => {
      const e = one(account, label, at);
      ids[account]!.push(e.id);
      await w.write({ events: [e.group], folds: [] }, { now: at, flush: n });
    };
    await write(b, KEPT, 'k0', hour - 2 * 3_600_000, 1);
    await write(b, KEPT, 'k1', t0, 2);
    // A writes TAKEN's partition in the hour, then gives it to B
    await write(a, TAKEN, 'g0', t0 + 1_000, 1);
    await write(a, TAKEN, 'g1', t0 + 2_000, 2);
    b.resync(t0 + 3_000, activityPartitionOf(TAKEN));
    const before = b.probes();
    // KEPT's scopes go on from B's counters: no probe
    await write(b, KEPT, 'k2', t0 + 3_000, 3);
    expect(b.probes()).toBe(before);
    // TAKEN's scopes are probed (each once) and numbered after A's pages
    await write(b, TAKEN, 'g2', t0 + 4_000, 4);
    const probed = b.probes() - before;
    expect(probed).toBeGreaterThan(0);
    await write(b, TAKEN, 'g3', t0 + 5_000, 5);
    await write(b, KEPT, 'k3', t0 + 6_000, 6);
    expect(b.probes() - before).toBe(probed);

    const log = openActivityLog(store().connection, 'ferretdb');
    for (const account of [KEPT, TAKEN]) {
      const listed = (await log.list(query({ account, fromMs: hour, toMs: hour + 3_600_000 }))).rows.map(
        (r) => r.event_id,
      );
      expect(listed).toEqual(ids[account]!.filter((id) => id !== ids[KEPT]![0]).reverse());
      const byEndpoint = (
        await log.list(query({ account, endpointId: `ep_${account}`, fromMs: hour, toMs: hour + 3_600_000 }))
      ).rows.map((r) => r.event_id);
      expect(byEndpoint).toEqual(listed);
    }
    // four pages of TAKEN's account scope in the hour, none written over: A's two, then B's two
    const pages = await collectionsOf(store())
      .index('2026-11-20T14')
      .getMany([0, 1, 2, 3, 4].map((n) => `a:${TAKEN}|${n}`));
    expect(pages.map((p) => p._id).sort()).toEqual([0, 1, 2, 3].map((n) => `a:${TAKEN}|${n}`));
  });
});
