import mongoose from 'mongoose';
import { timeOfId } from '@relay/contracts';
import { decodeRow, mergeAttempts } from '../../support/activity-log-internals';
import type { ActivityDoc } from '@relay/store';
import type { StoredAttempt } from '../../support/activity-log-internals';

/** What the activity log holds, counted from every row partition of the store. */
export interface ActivityTally {
  /** row documents (late-attempt documents beside them not counted) */
  rows: number;
  /** requests the rows stand for: 1 per own row, `aggregate.count` per aggregated row */
  requests: number;
  /** by outcome: requests represented (own rows + aggregated counts) */
  byOutcome: Record<string, number>;
  /** ids of the ACCEPTED rows */
  accepted: Set<string>;
  /** aggregated (flood-folded) rows and the requests they stand for */
  aggregatedRows: number;
  aggregatedRequests: number;
  /** rows whose status, late attempts merged, is Pending, and some of their ids */
  pending: number;
  pendingIds: string[];
  /** rows with attempts but no request (the request's own row never came) */
  attemptsOnly: number;
  byStatus: Record<string, number>;
  /** up to 20 rows with attempts only or an outcome other than ACCEPTED / DELIVERY_QUEUE_UNAVAILABLE, with the time their id carries */
  odd: Array<{ id: string; outcome: string; at: number }>;
}

type RowDoc = ActivityDoc & { aggregate?: { count: number } | null };

/**
 * Reads every document of every `activity_rows_<hour>` partition (a whole-collection read, not
 * the service's by-`_id` access: this runs once, after the run) and merges late attempts into
 * their rows the way the management API does when it reads a row.
 */
export async function tallyActivity(mongodbUrl: string): Promise<ActivityTally> {
  const conn = await mongoose.createConnection(mongodbUrl, { serverSelectionTimeoutMS: 10000 }).asPromise();
  try {
    const db = conn.db!;
    const names = (await db.listCollections({}, { nameOnly: true }).toArray())
      .map((c) => c.name)
      .filter((n) => n.startsWith('activity_rows_'));
    const rows = new Map<string, RowDoc>();
    const late = new Map<string, StoredAttempt[]>();
    for (const name of names) {
      for await (const doc of db.collection(name).find({}, { batchSize: 2000 })) {
        const id = String(doc._id);
        const cut = id.indexOf('~a~');
        if (cut >= 0) {
          const eventId = id.slice(0, cut);
          late.set(eventId, [...(late.get(eventId) ?? []), (doc as unknown as { attempt: StoredAttempt }).attempt]);
        } else {
          rows.set(id, decodeRow(doc as unknown as RowDoc)!);
        }
      }
    }
    const tally: ActivityTally = {
      rows: rows.size,
      requests: 0,
      byOutcome: {},
      accepted: new Set(),
      aggregatedRows: 0,
      aggregatedRequests: 0,
      pending: 0,
      pendingIds: [],
      attemptsOnly: 0,
      byStatus: {},
      odd: [],
    };
    const odd = (id: string, outcome: string): void => {
      if (tally.odd.length < 20) tally.odd.push({ id, outcome, at: timeOfId(id) ?? 0 });
    };
    for (const [id, stored] of rows) {
      // merging (even nothing) derives the status again from the outcome and the attempts
      const row = mergeAttempts(stored, late.get(id) ?? []);
      const status = row.status;
      tally.byStatus[status] = (tally.byStatus[status] ?? 0) + 1;
      if (status === 'pending') {
        tally.pending += 1;
        if (tally.pendingIds.length < 10) tally.pendingIds.push(id);
      }
      if (!row.outcome) {
        tally.attemptsOnly += 1;
        odd(id, '(attempts only)');
        continue;
      }
      if (row.outcome !== 'ACCEPTED' && row.outcome !== 'DELIVERY_QUEUE_UNAVAILABLE') odd(id, row.outcome);
      const count = row.aggregate ? row.aggregate.count : 1;
      if (row.aggregate) {
        tally.aggregatedRows += 1;
        tally.aggregatedRequests += count;
      }
      tally.requests += count;
      tally.byOutcome[row.outcome] = (tally.byOutcome[row.outcome] ?? 0) + count;
      if (row.outcome === 'ACCEPTED') tally.accepted.add(id);
    }
    // late attempts whose row is not there at all
    for (const id of late.keys()) {
      if (rows.has(id)) continue;
      tally.attemptsOnly += 1;
      odd(id, '(late attempts only)');
    }
    return tally;
  } finally {
    await conn.close();
  }
}
