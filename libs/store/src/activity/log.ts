import type { Connection } from 'mongoose';
import { timeOfId } from '@relay/contracts';
import { collections, hourOf } from './keys';
import { keyedCollection } from './keyed-collection';
import type { KeyedCollection } from './keyed-collection';

/** An index page, a change page, or a directory document. */
export interface IndexDoc {
  _id: string;
  /** page: encoded entries or changes (entries.ts) */
  e?: string;
  /** directory: hours (0–23) of the day with pages for the scope */
  hours?: number[];
}

/** Collections kept open; past this the oldest handles are dropped (they are cheap to remake). */
const OPEN_MAX = 2000;

/**
 * The activity log's collections (keys.ts), each used by `_id` only. A row is found from its id
 * alone: event ids carry their arrival time (@relay/contracts newEventId).
 */
export class ActivityLog<Row extends { _id: string }> {
  private readonly open = new Map<string, KeyedCollection<never>>();

  constructor(private readonly connection: Connection) {}

  rows(hour: string): KeyedCollection<Row> {
    return this.collection(collections.rows(hour));
  }

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

  /** A row by id, or null (also for an id that carries no time). */
  async row(id: string): Promise<Row | null> {
    const at = timeOfId(id);
    return at === null ? null : this.rows(hourOf(at)).get(id);
  }

  /** Every partition collection of the log (a metadata read: no documents are touched). */
  async partitions(): Promise<{ name: string; kind: 'rows' | 'index' | 'dir'; key: string }[]> {
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
