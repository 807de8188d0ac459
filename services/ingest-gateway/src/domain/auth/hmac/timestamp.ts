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
export function checkTimestamp(timestamp: number, now: Date, toleranceSeconds: number | null, unit: 'seconds' | 'milliseconds' = 'seconds'): VerifyResult {
  if (toleranceSeconds === null) return PASS;
  const timestampMs = unit === 'seconds' ? timestamp * 1000 : timestamp;
  return Math.abs(now.getTime() - timestampMs) > toleranceSeconds * 1000 ? fail('timestamp outside tolerance') : PASS;
}
