import type { Connection } from 'mongoose';
import { timeOfId } from '@relay/contracts';
import { collections, hourOf } from './keys';
import { keyedCollection } from '@relay/store';
import type { KeyedCollection } from '@relay/store';
import { mergeAttempts } from './status';
import type { StoredAttempt } from './status';
import type { StatusGroup } from '@relay/store';
import type { StoredPayload } from '../driver';

export type { StoredPayload };

/** An index page, a change page, or a directory document. */
export interface IndexDoc {
  _id: string;
  /** page: encoded entries or changes (entries.ts) */
  e?: string;
  /**
   * directory: the first hour (0–23) of the day with pages for the scope; it lists every hour
   * from there to the day's end (IndexWriter.register), an hour with no page reads as empty
   */
  from?: number;
  /** directory, written before 2026-11-26: the hours (0–23) of the day with pages for the scope (still read) */
  hours?: number[];
  /**
   * directory: for hours the writer has left behind, how many entry pages (`page_count`) and
   * change pages (`change_count`) the scope has there, by hour. Exact: a page written later into
   * such an hour raises its count before it is inserted (IndexWriter), so a reader takes the
   * count as it is, with no read to confirm it. (Directories written before 2026-11-24 have
   * `pages` and `changes`, counts that later pages did not raise; readers ignore them.)
   */
  page_count?: Record<string, number>;
  change_count?: Record<string, number>;
}

/** A late attempt of a row, kept beside it: `<event_id>~a~<k>`, k = 0, 1, 2 … */
export interface LateAttemptDoc {
  _id: string;
  attempt: StoredAttempt;
}

export const lateAttemptId = (eventId: string, k: number): string => `${eventId}~a~${k}`;

/**
 * An accepted event's payload, kept for resends as `<event_id>~p` in the payload partition of
 * its row's hour (keys.ts), which retention drops with the row's. `p` is the JSON text of
 * `{ request, payload }` as the deliveries carried them: one text field, since FerretDB's cost
 * grows with nested values.
 */
export interface PayloadDoc {
  _id: string;
  p: string;
}

export const payloadId = (eventId: string): string => `${eventId}~p`;

/** What a row must have for late attempts to merge into it. */
export interface MergeableRow {
  _id: string;
  status: StatusGroup;
  last_error: string | null;
  deliveries: Record<
    string,
    {
      delivery_id: string;
      target_id: string;
      target_kind: string;
      state: StoredAttempt['state'];
      attempts: Record<string, Omit<StoredAttempt, 'delivery_id' | 'target_id' | 'target_kind'>>;
    }
  >;
}

/** Collections kept open; past this the oldest handles are dropped (they are cheap to remake). */
const OPEN_MAX = 2000;

/**
 * The activity log's collections (keys.ts), each used by `_id` only. A row is found from its id
 * alone: event ids carry their arrival time (@relay/contracts newEventId).
 */
export class LogCollections<Row extends MergeableRow> {
  private readonly open = new Map<string, KeyedCollection<never>>();

  constructor(private readonly connection: Connection) {}

  /** Rows of one hour, each stored as one JSON text (encodeRow). */
  rows(hour: string): KeyedCollection<Row> {
    const raw = this.collection<Row>(collections.rows(hour));
    return {
      get: async (id) => decodeRow(await raw.get(id)),
      getMany: async (ids) => (await raw.getMany(ids)).map((r) => decodeRow(r)!),
      insertNew: (docs) => raw.insertNew(docs.map(encodeRow)),
      update: (ops) => raw.update(ops.map((o) => ({ ...o, update: encodeUpdate(o.update) }))),
      delete: (ids) => raw.delete(ids),
    };
  }

  /** Payload documents of one hour's rows (`<event_id>~p`), beside the rows' collection, never in it. */
  payloads(hour: string): KeyedCollection<PayloadDoc> {
    return this.collection(collections.payloads(hour));
  }

  /** The stored payload of an event, or null (not stored, not yet written, or expired). One read by `_id`. */
  async payload(eventId: string): Promise<StoredPayload | null> {
    const at = timeOfId(eventId);
    if (at === null) return null;
    const doc = await this.payloads(hourOf(at)).get(payloadId(eventId));
    return doc ? (JSON.parse(doc.p) as StoredPayload) : null;
  }

  /** The index pages of an hour, every scope's (keys.ts). */
  index(hour: string): KeyedCollection<IndexDoc> {
    return this.collection(collections.index(hour));
  }

  dir(day: string): KeyedCollection<IndexDoc> {
    return this.collection(collections.dir(day));
  }

  /** The partition of a row: the hour its id carries, else `fallbackMs` (ids made before time-carrying ids). */
  hourOfRow(id: string, fallbackMs: number): string {
    return hourOf(timeOfId(id) ?? fallbackMs);
  }

  /** A row by id with its late attempts merged in, or null (also for an id that carries no time). */
  async row(id: string): Promise<Row | null> {
    return (await this.rowWithLate(id))?.row ?? null;
  }

  /**
   * A row and how many late-attempt documents it has. A row is inserted once and never updated
   * (FerretDB's updates scan their collection twice); attempts that arrive after it are inserted
   * beside it as `<event_id>~a~<k>` and merged when the row is read. About 1 + k + 1 reads.
   */
  async rowWithLate(id: string, fallbackMs?: number): Promise<{ row: Row; late: number } | null> {
    const at = timeOfId(id) ?? fallbackMs;
    if (at === undefined) return null;
    const rows = this.rows(hourOf(at));
    const row = await rows.get(id);
    if (!row) return null;
    const late: StoredAttempt[] = [];
    const lateDocs = rows as unknown as KeyedCollection<LateAttemptDoc>;
    for (let k = 0; ; k++) {
      const doc = await lateDocs.get(lateAttemptId(id, k));
      if (!doc) break;
      late.push(storedLate(doc.attempt));
    }
    return { row: late.length ? mergeAttempts(row, late) : row, late: late.length };
  }

  /**
   * `rowWithLate` for many rows of one hour: the rows, then their late attempts `~a~k` one k at a
   * time for the rows that still have one (a row has rarely more than a couple). Every read is
   * one `_id` lookup, many in flight at once (`getMany`). For a flush that must read rows it no
   * longer remembers (attempts that came after their row left its memory, messages a killed
   * writer took coming back) and for the response-status search.
   */
  async rowsWithLate(hour: string, ids: string[]): Promise<Map<string, { row: Row; late: number }>> {
    const rows = this.rows(hour);
    const found = new Map<string, { row: Row; late: StoredAttempt[] }>();
    for (const row of await rows.getMany(ids)) found.set(row._id, { row, late: [] });
    const lateDocs = rows as unknown as KeyedCollection<LateAttemptDoc>;
    let open = [...found.keys()];
    for (let k = 0; open.length > 0; k++) {
      const docs = await lateDocs.getMany(open.map((id) => lateAttemptId(id, k)));
      const byId = new Map(docs.map((d) => [d._id, d]));
      open = open.filter((id) => {
        const doc = byId.get(lateAttemptId(id, k));
        if (doc) found.get(id)!.late.push(storedLate(doc.attempt));
        return doc !== undefined;
      });
    }
    const out = new Map<string, { row: Row; late: number }>();
    for (const [id, { row, late }] of found)
      out.set(id, { row: late.length ? mergeAttempts(row, late) : row, late: late.length });
    return out;
  }

  /** Every partition collection of the log (a metadata read: no documents are touched). */
  async partitions(): Promise<{ name: string; kind: 'rows' | 'index' | 'dir' | 'payloads'; key: string }[]> {
    const db = this.connection.db;
    if (!db) return [];
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    return names.flatMap((name) => {
      const k = collections.keyOf(name);
      return k ? [{ name, ...k }] : [];
    });
  }

  async drop(name: string): Promise<void> {
    this.open.delete(name);
    await this.connection.db?.dropCollection(name).catch((err: { codeName?: string }) => {
      if (err.codeName !== 'NamespaceNotFound') throw err;
    });
  }

  private collection<T extends { _id: string }>(name: string): KeyedCollection<T> {
    let c = this.open.get(name);
    if (!c) {
      if (this.open.size >= OPEN_MAX) this.open.delete(this.open.keys().next().value!);
      c = keyedCollection(this.connection.collection(name)) as KeyedCollection<never>;
      this.open.set(name, c);
    }
    return c as unknown as KeyedCollection<T>;
  }
}

/** A late attempt as stored (its times may come back as text) with its times as dates. */
function storedLate(a: StoredAttempt): StoredAttempt {
  return {
    ...a,
    attempted_at: new Date(a.attempted_at),
    next_attempt_at: a.next_attempt_at ? new Date(a.next_attempt_at) : null,
  };
}

/**
 * A row is written as `{ _id, r }`, `r` the JSON text of everything else: FerretDB's cost to
 * write and read a document grows with its number of values (inserting 1,000 rows took 130 ms
 * of FerretDB and PostgreSQL CPU with the fields apart, 64 ms as one text —
 * docs/benchmarks.md), and nothing ever filters on a row's fields: rows are read by `_id`, and
 * listing reads the index pages. Aggregated rows keep their fields (their count moves by `$inc`);
 * so do their `$setOnInsert` fields, with `deliveries` as one text. Documents without
 * `deliveries` (late attempts beside the rows) are written as they are. Rows written before
 * (fields apart, `deliveries` as text or nested) read back unchanged.
 */
function encodeRow<R>(row: R): R {
  const { _id, ...rest } = row as { _id: string; deliveries?: unknown };
  return rest.deliveries === undefined ? row : ({ _id, r: JSON.stringify(rest) } as R);
}

function encodeUpdate(update: Record<string, unknown>): Record<string, unknown> {
  const out = { ...update };
  // a whole row replaces what was stored; a decoded `r` wins over fields stored beside it
  if (out.$set) out.$set = { r: JSON.stringify(out.$set) };
  if (out.$setOnInsert) out.$setOnInsert = deliveriesAsText(out.$setOnInsert as Record<string, unknown>);
  return out;
}

function deliveriesAsText(fields: Record<string, unknown>): Record<string, unknown> {
  const d = fields.deliveries;
  return d !== undefined && typeof d !== 'string' ? { ...fields, deliveries: JSON.stringify(d) } : fields;
}

/** A stored row document as the row it stands for: any of the encodings above. */
export function decodeRow<R>(doc: R | null): R | null {
  if (doc === null) return null;
  const stored = doc as { _id: string; r?: unknown; deliveries?: unknown };
  let row: Record<string, unknown> = stored;
  if (typeof stored.r === 'string') {
    const fields = JSON.parse(stored.r) as Record<string, unknown>;
    row = { _id: stored._id, ...fields };
    if (typeof fields.received_at === 'string') row.received_at = new Date(fields.received_at);
  }
  const d = row.deliveries;
  if (d === undefined) return row as R;
  const deliveries = (typeof d === 'string' ? JSON.parse(d) : d) as Record<
    string,
    { attempts: Record<string, { attempted_at: string | Date; next_attempt_at: string | Date | null }> }
  >;
  for (const delivery of Object.values(deliveries)) {
    for (const a of Object.values(delivery.attempts ?? {})) {
      a.attempted_at = new Date(a.attempted_at);
      a.next_attempt_at = a.next_attempt_at === null ? null : new Date(a.next_attempt_at);
    }
  }
  return { ...row, deliveries } as R;
}
