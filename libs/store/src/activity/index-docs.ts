import type { ChangeTuple, EntryTuple } from './entries';

/** Documents of the `activity_index` collection (layout in keys.ts). */
export interface IndexDoc {
  _id: string;
  /** day doc: hours (0–23) of that day with rows */
  hours?: number[];
  /** hour doc: minutes (0–59) of that hour with rows */
  minutes?: number[];
  /** minute doc: number of entry pages and entries in the last one */
  pages?: number;
  last_len?: number;
  /** minute doc: number of change pages and changes in the last one */
  changes?: number;
  last_change_len?: number;
  /** entry or change page */
  e?: EntryTuple[] | ChangeTuple[];
  /** sweep doc: scopes written that hour */
  scopes?: string[];
  /** retention cursor: the oldest hour not swept yet */
  hour?: string;
}

/** Entries per page: a page is rewritten whole by FerretDB on each append, so it stays small. */
export const PAGE_ENTRIES = 256;
