import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/**
 * Prefixed random identifiers (`ep_…`, `evt_…`): 20 base32 characters = 100 bits, enough that
 * an endpoint id in a public URL cannot be guessed.
 */
export function newId(prefix: string, length = 20): string {
  return `${prefix}_${randomChars(length)}`;
}

// Bytes from the CSPRNG in 4 KiB draws, each byte used once: a randomBytes call per id was ~2%
// of the gateway's CPU under load (one event id per request).
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

function randomChars(length: number): string {
  if (used + length > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, length));
    used = 0;
  }
  let out = '';
  for (let i = used; i < used + length; i++) out += ALPHABET[pool[i]! & 31];
  used += length;
  return out;
}

const ID_CHARS = /^[0-9a-hjkmnp-tv-z]{20}$/;

/**
 * Whether `text` has the shape of an id `newId(prefix)` makes. The gateway refuses an endpoint
 * id of another shape without asking the store, so a flood of random ids costs no read.
 */
export function isIdOf(prefix: string, text: string): boolean {
  return (
    text.length === prefix.length + 21 && text.startsWith(`${prefix}_`) && ID_CHARS.test(text.slice(prefix.length + 1))
  );
}

const TIME_CHARS = 10; // 50 bits of milliseconds: good until the year 37,000

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0, t = ms; i < TIME_CHARS; i++, t = Math.floor(t / 32)) out = ALPHABET[t % 32]! + out;
  return out;
}

/**
 * An event id that carries its arrival time: `evt_` + 10 base32 characters of milliseconds +
 * 16 random ones (80 bits). The activity log is partitioned by arrival hour, so the id alone
 * says where its row is (docs/architecture.md "Activity log storage"); ids sort by time.
 */
export function newEventId(receivedAtMs: number): string {
  return `evt_${encodeTime(receivedAtMs)}${randomChars(16)}`;
}

/** An id whose row lives in the partition of `atMs` (aggregated rows: `agg_` + time + digest). */
export function timedId(prefix: string, atMs: number, rest: string): string {
  return `${prefix}_${encodeTime(atMs)}${rest}`;
}

/** The time an `evt_`/`agg_` id carries, or null for an id without one. */
export function timeOfId(id: string): number | null {
  const m = /^(?:evt|agg)_([0-9a-hjkmnp-tv-z]{10})/.exec(id);
  if (!m) return null;
  let ms = 0;
  for (const ch of m[1]!) ms = ms * 32 + ALPHABET.indexOf(ch);
  return ms;
}

/** The delivery id is stable across every attempt of one event × target. */
export function deliveryIdFor(eventId: string, targetId: string): string {
  return `dlv_${eventId.replace(/^evt_/, '')}_${targetId.replace(/^tg_/, '')}`;
}

const TAG_RANDOM = 6;
const RESEND_TAG = /_r([0-9a-hjkmnp-tv-z]{16})$/;

/**
 * What tells a delivery made again (a resend, a bulk retry) from the first one and from the
 * others: 10 characters of the time it was made + 6 random ones, so tags sort by time.
 */
export function resendTag(atMs: number): string {
  return `${encodeTime(atMs)}${randomChars(TAG_RANDOM)}`;
}

/**
 * A delivery made again of an event to a target: a new delivery id under the same event id,
 * `<first delivery id>_r<tag>`. The row keeps every delivery; for each target the one with the
 * highest tag is the current one (the first delivery has none and sorts lowest).
 */
export function resendDeliveryId(eventId: string, targetId: string, tag: string): string {
  return `${deliveryIdFor(eventId, targetId)}_r${tag}`;
}

/** When a delivery made again was made (its tag's time); null for an event's first delivery to a target. */
export function timeOfResend(deliveryId: string): number | null {
  const tag = RESEND_TAG.exec(deliveryId)?.[1];
  if (tag === undefined) return null;
  let ms = 0;
  for (const ch of tag.slice(0, TIME_CHARS)) ms = ms * 32 + ALPHABET.indexOf(ch);
  return ms;
}

/** '' for an event's first delivery to a target, the tag of a resend: a later delivery sorts higher. */
export function deliveryOrderOf(deliveryId: string): string {
  return RESEND_TAG.exec(deliveryId)?.[1] ?? '';
}
