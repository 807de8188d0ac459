/**
 * A list cursor of the MongoDB driver: the time and id of the last row of a page (the list's
 * order, rows.ts NEWEST_FIRST); the next page has the rows after it. Opaque to clients:
 * base64url of `r|<ms>|<event id>`.
 */
export const encodeRowCursor = (receivedMs: number, eventId: string): string =>
  Buffer.from(`r|${receivedMs}|${eventId}`).toString('base64url');

export function decodeRowCursor(cursor: string): { at: Date; id: string } | null {
  const m = /^r\|(\d{1,15})\|([\w-]{1,200})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? { at: new Date(Number(m[1])), id: m[2]! } : null;
}
