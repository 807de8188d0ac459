import type { AnyBulkWriteOperation, Collection, MongoBulkWriteError } from 'mongodb';
import type { ActivityAttemptV1, ActivityMessage, ActivityRequestV1 } from '@relay/contracts';
import type { ActivityDoc, Store } from '@relay/store';
import { deliveryState, statusOf } from '../domain/status';

/**
 * Statements per bulk write. FerretDB 1.24 (the local MongoDB-wire store) never answers an
 * `update` command of 100 or more statements; 50 keeps well clear and costs MongoDB nothing.
 */
const CHUNK = 50;

export interface ActivityWriter {
  write(messages: ActivityMessage[]): Promise<void>;
}

/**
 * Writes activity messages with idempotent operations keyed by event id, delivery id and
 * attempt number, so redeliveries and any arrival order converge on the same row:
 * - a request row is inserted whole with its status already derived (the common case needs
 *   no read); if the row exists (its attempts came first, or a redelivery) it is `$set`;
 * - an attempt is an upsert `$set` under `deliveries.<id>.attempts.<n>`;
 * - rows touched by attempts get their status derived again, under a revision check.
 * Writes to one row must not run concurrently: MongoDB makes single-document updates
 * atomic, FerretDB does not, so one writer flushes one batch at a time (see Batcher).
 */
export function createActivityWriter(store: Store): ActivityWriter {
  const coll = store.activity.collection as unknown as Collection<ActivityDoc>;
  return {
    async write(messages) {
      const requests = messages.filter((m): m is ActivityRequestV1 => m.type === 'relay.activity.request.v1');
      const attempts = messages.filter((m): m is ActivityAttemptV1 => m.type === 'relay.activity.attempt.v1');
      const existing = await insertRequests(coll, dedupe(requests));
      await bulk(coll, [...existing.map(requestUpdate), ...attempts.map(attemptUpdate)]);
      const touched = new Set([...existing.map((r) => r.event_id), ...attempts.map((a) => a.event_id)]);
      if (touched.size > 0) await deriveStatus(coll, [...touched]);
    },
  };
}

function dedupe(rows: ActivityRequestV1[]): ActivityRequestV1[] {
  return [...new Map(rows.map((r) => [r.event_id, r])).values()];
}

function requestFields(m: ActivityRequestV1) {
  return {
    account_id: m.account_id,
    endpoint_id: m.endpoint_id,
    received_at: new Date(m.received_at),
    method: m.method,
    source_ip: m.source_ip,
    outcome: m.outcome,
    reason: m.reason,
    target_count: m.target_count,
    test: m.test,
  };
}

/** Inserts new rows; returns the requests whose row already existed. */
async function insertRequests(coll: Collection<ActivityDoc>, rows: ActivityRequestV1[]): Promise<ActivityRequestV1[]> {
  if (rows.length === 0) return [];
  const docs = rows.map((m) => {
    const fields = requestFields(m);
    return { _id: m.event_id, ...fields, status: statusOf(fields), deliveries: {}, rev: 1 } as unknown as ActivityDoc;
  });
  try {
    await coll.insertMany(docs, { ordered: false });
    return [];
  } catch (err) {
    const e = err as MongoBulkWriteError;
    const failed = e.writeErrors ? (Array.isArray(e.writeErrors) ? e.writeErrors : [e.writeErrors]) : null;
    if (!failed || failed.some((w) => w.code !== 11000)) throw err;
    return failed.map((w) => rows[w.index]!);
  }
}

function requestUpdate(m: ActivityRequestV1): AnyBulkWriteOperation<ActivityDoc> {
  return { updateOne: { filter: { _id: m.event_id }, update: { $set: requestFields(m), $inc: { rev: 1 } } as never, upsert: true } };
}

function attemptUpdate(a: ActivityAttemptV1): AnyBulkWriteOperation<ActivityDoc> {
  const base = `deliveries.${a.delivery_id}`;
  const set = {
    account_id: a.account_id,
    endpoint_id: a.endpoint_id,
    [`${base}.delivery_id`]: a.delivery_id,
    [`${base}.target_id`]: a.target_id,
    [`${base}.target_kind`]: a.target_kind,
    [`${base}.attempts.${a.attempt}`]: {
      attempt: a.attempt,
      attempted_at: new Date(a.attempted_at),
      state: a.state,
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      next_attempt_at: a.next_attempt_at ? new Date(a.next_attempt_at) : null,
    },
  };
  return { updateOne: { filter: { _id: a.event_id }, update: { $set: set, $inc: { rev: 1 } } as never, upsert: true } };
}

async function bulk(coll: Collection<ActivityDoc>, ops: AnyBulkWriteOperation<ActivityDoc>[]): Promise<void> {
  for (let i = 0; i < ops.length; i += CHUNK) await coll.bulkWrite(ops.slice(i, i + CHUNK), { ordered: false });
}

type StoredDeliveries = Record<string, { attempts?: Record<string, { attempt: number; state: 'delivered' | 'retrying' | 'failed'; error: string | null; attempted_at: Date }> }>;

/**
 * Sets `status`, each delivery's `state` and `last_error` (what the error-text filter
 * searches) from the stored attempts — only if `rev` did not move since the row was read.
 */
async function deriveStatus(coll: Collection<ActivityDoc>, ids: string[], tries = 5): Promise<void> {
  const docs = await coll.find({ _id: { $in: ids } } as never).toArray();
  const ops: AnyBulkWriteOperation<ActivityDoc>[] = docs.map((doc) => {
    const deliveries = (doc.deliveries ?? {}) as unknown as StoredDeliveries;
    const set: Record<string, unknown> = { status: statusOf(doc as never), last_error: lastError(deliveries) };
    for (const [id, d] of Object.entries(deliveries)) set[`deliveries.${id}.state`] = deliveryState(d.attempts);
    return { updateOne: { filter: { _id: doc._id, rev: doc.rev } as never, update: { $set: set } } };
  });
  let matched = 0;
  for (let i = 0; i < ops.length; i += CHUNK) matched += (await coll.bulkWrite(ops.slice(i, i + CHUNK), { ordered: false })).matchedCount;
  if (matched < ops.length && tries > 1) await deriveStatus(coll, ids, tries - 1);
}

function lastError(deliveries: StoredDeliveries): string | null {
  let latest: { error: string | null; attempted_at: Date } | null = null;
  for (const d of Object.values(deliveries)) {
    for (const a of Object.values(d.attempts ?? {})) if (a.error && (!latest || a.attempted_at > latest.attempted_at)) latest = a;
  }
  return latest?.error ?? null;
}
