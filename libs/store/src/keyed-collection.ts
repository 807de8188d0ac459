import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';

/**
 * The only operations the activity log uses: each one addresses documents by `_id` equality
 * alone, which both MongoDB and FerretDB serve by key (docs/architecture.md). Nothing here can
 * express a filter that scans, so no activity path can grow with the collection.
 */
export interface KeyedCollection<T extends { _id: string }> {
  get(id: string): Promise<T | null>;
  /**
   * The documents of these ids that exist: one `_id` equality read each, `GET_MANY_AT_ONCE` in
   * flight. Never `_id: {$in}`: FerretDB 1.24 does not push it down and reads the whole
   * collection for it (28.5 s at 575,000 rows; docs/architecture.md).
   */
  getMany(ids: string[]): Promise<T[]>;
  /** Inserts all; returns the ids that already existed (nothing else is an error). */
  insertNew(docs: T[]): Promise<string[]>;
  /**
   * One update per id (`$set`, `$push`, `$addToSet`, `$inc`, `$min`, `$max`, `$setOnInsert`).
   * Every id must exist or be upserted: one the store matched nothing for throws.
   */
  update(ops: { id: string; update: Document; upsert?: boolean }[]): Promise<void>;
  delete(ids: string[]): Promise<void>;
}

/**
 * Statements per write command. FerretDB 1.24 holds a backend connection per statement until
 * the command ends, so an `update` command never answers once it has more statements than its
 * pool has connections: 100 on SQLite, 50 on PostgreSQL (measured; docs/architecture.md). 25
 * leaves room for other queries sharing the pool, and costs MongoDB nothing.
 */
export const STATEMENTS_PER_COMMAND = 25;

/**
 * Set on every read: with it FerretDB cancels the backend query when the cursor closes, so a
 * lookup stops at its match; without it PostgreSQL finishes the whole scan (measured 2.1 s vs
 * 97 ms at 1,000,000 documents).
 */
const MAX_TIME_MS = 30_000;

/**
 * `_id` reads a `getMany` keeps in flight. Each waits mostly on FerretDB's own per-command cost,
 * so a few at once hide it: 1,000 reads at 300,000 rows took 1.04 s one at a time, 0.49 s 16 at
 * once, 0.38 s 32 at once (docs/benchmarks.md). 16 leaves the instance's pool (180, scripts/infra.sh)
 * room for every other process.
 */
export const GET_MANY_AT_ONCE = 16;

export function keyedCollection<T extends { _id: string }>(coll: Collection<T>): KeyedCollection<T> {
  const raw = coll as unknown as Collection<Document>;
  const get = async (id: string): Promise<T | null> =>
    (await raw.findOne({ _id: id } as never, { maxTimeMS: MAX_TIME_MS })) as T | null;
  return {
    get,
    async getMany(ids) {
      const found = await mapLimit([...new Set(ids)], GET_MANY_AT_ONCE, get);
      return found.filter((doc): doc is T => doc !== null);
    },
    async insertNew(docs) {
      if (docs.length === 0) return [];
      try {
        const { insertedCount } = await raw.insertMany(docs as Document[], { ordered: false });
        checkInserted(raw.collectionName, docs.length, insertedCount, 0);
        return [];
      } catch (err) {
        const duplicates = duplicateKeyErrors(err);
        if (!duplicates) throw err;
        checkInserted(
          raw.collectionName,
          docs.length,
          (err as { insertedCount?: number }).insertedCount,
          duplicates.length,
        );
        return duplicates.map((w) => docs[w.index]!._id);
      }
    },
    async update(ops) {
      for (let i = 0; i < ops.length; i += STATEMENTS_PER_COMMAND)
        await oneUpdateAtATime(() => updateCommand(raw, ops.slice(i, i + STATEMENTS_PER_COMMAND)));
    },
    async delete(ids) {
      const writes: AnyBulkWriteOperation[] = ids.map((id) => ({ deleteOne: { filter: { _id: id } as never } }));
      for (let i = 0; i < writes.length; i += STATEMENTS_PER_COMMAND)
        await raw.bulkWrite(writes.slice(i, i + STATEMENTS_PER_COMMAND), { ordered: false });
    },
  };
}

/**
 * Every document sent is either inserted or a duplicate: the server's own count must say so.
 * A shortfall with no error is a write the caller must not acknowledge, so it throws and the
 * caller's messages are redelivered (inserting them again is idempotent). MongoDB never
 * answers so; the check costs nothing and turns a store that might into a retried write.
 */
function checkInserted(collection: string, sent: number, inserted: number | undefined, duplicates: number): void {
  if (inserted === undefined || inserted + duplicates === sent) return;
  throw new Error(
    `the store inserted ${inserted} of ${sent} documents into ${collection} (${duplicates} already there) and reported no error for the rest`,
  );
}

/**
 * FerretDB 1.24 on PostgreSQL holds a pooled connection per statement of an `update` command
 * until the command ends, and a command waiting for one more connection holds the others: with
 * several multi-statement updates in flight the pool runs dry and every client of the instance
 * wedges (seen when four activity-writers flushed their partitions at once: 64 connections held
 * by update statements, the rest queued behind them, the instance answering nothing). So a
 * process sends one update command at a time; the instance's pool (scripts/infra.sh) is sized for
 * every process doing so at once. MongoDB has no such limit and loses a little parallelism only.
 */
let updateChain: Promise<unknown> = Promise.resolve();
function oneUpdateAtATime<T>(send: () => Promise<T>): Promise<T> {
  const turn = updateChain.then(send, send);
  updateChain = turn.catch(() => undefined);
  return turn;
}

/** Times a command that lost upsert races is sent again: each loss means the document now exists. */
const UPSERT_RACE_RESENDS = 3;
/** Operators whose second application changes nothing: a command of only these may be sent twice. */
const IDEMPOTENT = new Set(['$set', '$unset', '$min', '$max', '$addToSet', '$setOnInsert']);

/**
 * One update command. Two writers upserting the same new `_id` at once (two management-api
 * instances creating an account's first bulk retries) both find no document and both insert:
 * one gets a duplicate key. MongoDB retries such
 * an upsert itself; FerretDB 1.24 answers the error, stops at that statement and reports no
 * counts. The document is there now, so the command is sent again — when that cannot apply a
 * statement twice: every statement failed, or each is idempotent.
 */
async function updateCommand(
  raw: Collection<Document>,
  ops: { id: string; update: Document; upsert?: boolean }[],
): Promise<void> {
  const writes: AnyBulkWriteOperation[] = ops.map((o) => ({
    updateOne: { filter: { _id: o.id } as never, update: o.update, upsert: o.upsert ?? false },
  }));
  for (let resends = 0; ; resends++) {
    try {
      const { matchedCount, upsertedCount } = await raw.bulkWrite(writes, { ordered: false });
      checkUpdated(raw.collectionName, writes.length, matchedCount + upsertedCount);
      return;
    } catch (err) {
      const lost = duplicateKeyErrors(err);
      const resendable =
        lost !== null &&
        lost.length > 0 &&
        (lost.length === ops.length || ops.every((o) => Object.keys(o.update).every((k) => IDEMPOTENT.has(k))));
      if (!resendable || resends === UPSERT_RACE_RESENDS) throw err;
    }
  }
}

/** The write errors of `err` when every one is a duplicate key, else null. */
function duplicateKeyErrors(err: unknown): { code: number; index: number }[] | null {
  const failed = (err as { writeErrors?: { code: number; index: number }[] | { code: number; index: number } })
    .writeErrors;
  const list = failed ? (Array.isArray(failed) ? failed : [failed]) : null;
  return list && list.every((w) => w.code === 11000) ? list : null;
}

/**
 * Every update addresses a document the caller knows exists, or upserts it: each must have
 * matched or inserted one. Fewer is a write that did not happen (a row gone under the writer, a
 * store answering short), which the caller must not acknowledge as done.
 */
function checkUpdated(collection: string, sent: number, applied: number): void {
  if (applied === sent) return;
  throw new Error(`the store matched or upserted ${applied} of ${sent} documents to update in ${collection}`);
}

/** Runs `fn` over `items` with at most `limit` at once; results in input order. */
export async function mapLimit<I, O>(
  items: readonly I[],
  limit: number,
  fn: (item: I, index: number) => Promise<O>,
): Promise<O[]> {
  const out = new Array<O>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
