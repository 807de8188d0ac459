/**
 * A place in one scope's index, newest first: minute, page, entry. A list call returns the
 * position it stopped at; the next call continues with entries strictly older than it.
 * `page: -1` means "nothing of this minute": the walk continues with the minute before.
 */
export interface Position {
  minute: string;
  page: number;
  index: number;
}

/** true when (minute, page, index) comes after `cursor` in newest-first order (is older). */
export function isAfter(cursor: Position | null, minute: string, page: number, index: number): boolean {
  if (!cursor) return true;
  if (minute !== cursor.minute) return minute < cursor.minute;
  if (page !== cursor.page) return page < cursor.page;
  return index < cursor.index;
}

const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** Opaque to clients: base64url of `minute|page|index`. */
export function encodePosition(p: Position): string {
  return Buffer.from(`${p.minute}|${p.page}|${p.index}`).toString('base64url');
}

export function decodePosition(cursor: string): Position | null {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (parts.length !== 3 || !MINUTE.test(parts[0]!)) return null;
  const [page, index] = [Number(parts[1]), Number(parts[2])];
  if (!Number.isInteger(page) || !Number.isInteger(index) || page < -1 || index < 0) return null;
  return { minute: parts[0]!, page, index };
}
