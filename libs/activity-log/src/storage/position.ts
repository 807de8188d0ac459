/**
 * A place in one scope's index, newest first: hour, page, entry. A list call returns the
 * position it stopped at; the next call continues with entries strictly older than it.
 * `page: -1` means "nothing of this hour": the walk continues with the hour before.
 */
export interface Position {
  hour: string;
  page: number;
  index: number;
}

/** true when (hour, page, index) comes after `cursor` in newest-first order (is older). */
export function isAfter(cursor: Position | null, hour: string, page: number, index: number): boolean {
  if (!cursor) return true;
  if (hour !== cursor.hour) return hour < cursor.hour;
  if (page !== cursor.page) return page < cursor.page;
  return index < cursor.index;
}

const HOUR = /^\d{4}-\d{2}-\d{2}T\d{2}$/;

/** Opaque to clients: base64url of `hour|page|index`. */
export function encodePosition(p: Position): string {
  return Buffer.from(`${p.hour}|${p.page}|${p.index}`).toString('base64url');
}

export function decodePosition(cursor: string): Position | null {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (parts.length !== 3 || !HOUR.test(parts[0]!)) return null;
  const [page, index] = [Number(parts[1]), Number(parts[2])];
  if (!Number.isInteger(page) || !Number.isInteger(index) || page < -1 || index < 0) return null;
  return { hour: parts[0]!, page, index };
}
