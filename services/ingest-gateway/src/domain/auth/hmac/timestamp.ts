import { fail, PASS } from '../request';
import type { VerifyResult } from '../request';

const INTEGER = /^\d{1,16}$/;

/** Parses a Unix timestamp header value (digits only); undefined when malformed. */
export function parseTimestamp(text: string): number | undefined {
  return INTEGER.test(text) ? Number(text) : undefined;
}

/**
 * Replay window: the signed timestamp must be within `toleranceSeconds` of now, in either
 * direction (a timestamp from the future is as suspect as an old one). `unit` is the unit of
 * `timestamp`. A null tolerance disables the check.
 */
export function checkTimestamp(
  timestamp: number,
  now: Date,
  toleranceSeconds: number | null,
  unit: 'seconds' | 'milliseconds' = 'seconds',
): VerifyResult {
  if (toleranceSeconds === null) return PASS;
  const timestampMs = unit === 'seconds' ? timestamp * 1000 : timestamp;
  return Math.abs(now.getTime() - timestampMs) > toleranceSeconds * 1000 ? fail('timestamp outside tolerance') : PASS;
}

/**
 * RFC 3339 / ISO 8601 date-time, as Zendesk, Box and Twitch send it. Orb sends no zone and means
 * UTC, so a missing zone is read as UTC.
 */
const ISO_8601 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/;

/** A timestamp in a preset's unit, as milliseconds since the epoch; undefined when malformed. */
export function parseTimestampMs(text: string, unit: 'seconds' | 'milliseconds' | 'iso8601'): number | undefined {
  if (unit !== 'iso8601') {
    const n = parseTimestamp(text);
    return n === undefined ? undefined : unit === 'seconds' ? n * 1000 : n;
  }
  const m = ISO_8601.exec(text);
  if (!m) return undefined;
  // Date.parse reads at most milliseconds; Twitch sends nanoseconds.
  const ms = Date.parse(`${m[1] ?? ''}${(m[2] ?? '').slice(0, 4)}${m[3] ?? 'Z'}`);
  return Number.isNaN(ms) ? undefined : ms;
}
