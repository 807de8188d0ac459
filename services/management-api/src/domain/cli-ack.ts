import type { CliAckFrame, CliLocalOutcome } from '@relay/contracts';
import { LOCAL_ANSWER_BODY_BYTES } from '@relay/targets';

/*
 * A CLI's `ack` frame is the one thing a session takes from a laptop (docs/cli.md "The
 * session"): read it strictly and keep only what the attempt's outcome needs — the status, the
 * Retry-After header, the duration and a cut of the body — so nothing a CLI sends can grow what
 * the deliverer, the broker or the activity log hold.
 */

const MAX_ID_LENGTH = 64;
const MAX_CODE_LENGTH = 64;
const MAX_MESSAGE_LENGTH = 500;
/** an attempt longer than an hour is not a duration any session reports */
const MAX_DURATION_MS = 3_600_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number): string | null => (typeof v === 'string' ? v.slice(0, max) : null);

function duration(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.min(Math.round(v), MAX_DURATION_MS) : null;
}

function outcomeOf(v: unknown): CliLocalOutcome | null {
  if (!isObject(v)) return null;
  const ms = duration(v.duration_ms);
  if (ms === null) return null;
  if (isObject(v.error)) {
    const code = text(v.error.code, MAX_CODE_LENGTH);
    const message = text(v.error.message, MAX_MESSAGE_LENGTH);
    return code && message !== null ? { error: { code, message }, duration_ms: ms } : null;
  }
  const status = v.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) return null;
  const headers = isObject(v.headers) ? v.headers : {};
  const retryAfter = text(headers['retry-after'], 64);
  return {
    status,
    duration_ms: ms,
    headers: retryAfter === null ? {} : { 'retry-after': retryAfter },
    body: text(v.body, LOCAL_ANSWER_BODY_BYTES) ?? '',
  };
}

/** The ack in a text frame, reduced to what is kept; null for anything else. */
export function readAckFrame(raw: string): CliAckFrame | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isObject(parsed) || parsed.type !== 'ack') return null;
  const id = text(parsed.id, MAX_ID_LENGTH + 1);
  if (!id || id.length > MAX_ID_LENGTH) return null;
  const outcome = outcomeOf(parsed.outcome);
  return outcome ? { type: 'ack', id, outcome } : null;
}
