import { joinPath, schemaCheck } from '../rules/validation';
import { resultOf } from '@relay/contracts';
import type { FieldError, Validation } from '@relay/contracts';

/**
 * Spec "States and transitions": an endpoint is paused by a manual pause or while a scheduled
 * maintenance window is active; paused requests get 503 endpoint_unavailable with
 * Retry-After 60 ("Limits") and leave no activity row. Windows are half-open [starts_at, ends_at).
 */
export interface MaintenanceWindow {
  /** ISO 8601 date-time with an explicit offset, e.g. 2025-03-01T02:00:00Z */
  starts_at: string;
  ends_at: string;
}

export const MAX_MAINTENANCE_WINDOWS = 50;
/** Spec "Limits": Retry-After on endpoint_unavailable. */
const ENDPOINT_UNAVAILABLE_RETRY_AFTER_SECONDS = 60;

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

const check = schemaCheck({
  type: 'array',
  maxItems: MAX_MAINTENANCE_WINDOWS,
  items: {
    type: 'object',
    properties: { starts_at: { type: 'string' }, ends_at: { type: 'string' } },
    required: ['starts_at', 'ends_at'],
    additionalProperties: false,
  },
});

/** Milliseconds since the epoch, or `null` unless a real calendar date-time with an offset. */
export function parseIsoDateTime(value: string): number | null {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second = '0', offH = '0', offM = '0'] = m.slice(1);
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  const inRange =
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= daysInMonth &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offH) <= 23 &&
    Number(offM) <= 59;
  const ms = Date.parse(value);
  return inRange && !Number.isNaN(ms) ? ms : null;
}

export function validateMaintenanceWindows(
  input: unknown,
  at = 'maintenance_windows',
): Validation<MaintenanceWindow[]> {
  const errors = check(input, at);
  if (errors.length > 0) return { ok: false, errors };
  const windows = input as MaintenanceWindow[];
  windows.forEach((w, i) => errors.push(...windowErrors(w, joinPath(at, i))));
  return resultOf(errors, () => windows.map((w) => ({ starts_at: w.starts_at, ends_at: w.ends_at })));
}

function windowErrors(window: MaintenanceWindow, field: string): FieldError[] {
  const starts = parseIsoDateTime(window.starts_at);
  const ends = parseIsoDateTime(window.ends_at);
  const format = 'must be an ISO 8601 date-time with a time zone, e.g. 2025-03-01T02:00:00Z';
  const errors: FieldError[] = [];
  if (starts === null) errors.push({ field: `${field}.starts_at`, message: format });
  if (ends === null) errors.push({ field: `${field}.ends_at`, message: format });
  if (starts !== null && ends !== null && ends <= starts)
    errors.push({ field: `${field}.ends_at`, message: 'must be after starts_at' });
  return errors;
}

/** What the gateway needs to decide a pause; a subset of the endpoint record. */
interface PauseSettings {
  paused: boolean;
  maintenance_windows?: readonly MaintenanceWindow[];
}

type PauseState =
  | { paused: false }
  | {
      paused: true;
      /** for logs only: the spec says the cause is not revealed to senders */
      reason: 'manual' | 'maintenance_window';
      retryAfterSeconds: number;
      /** end of the active window(s); absent for a manual pause, which lasts until resumed */
      resumesAt?: Date;
    };

export function pauseState(endpoint: PauseSettings, now: Date): PauseState {
  const retryAfterSeconds = ENDPOINT_UNAVAILABLE_RETRY_AFTER_SECONDS;
  if (endpoint.paused) return { paused: true, reason: 'manual', retryAfterSeconds };
  const t = now.getTime();
  let resumesAt: number | null = null;
  for (const w of endpoint.maintenance_windows ?? []) {
    const starts = parseIsoDateTime(w.starts_at);
    const ends = parseIsoDateTime(w.ends_at);
    if (starts !== null && ends !== null && starts <= t && t < ends) resumesAt = Math.max(resumesAt ?? ends, ends);
  }
  return resumesAt === null
    ? { paused: false }
    : { paused: true, reason: 'maintenance_window', retryAfterSeconds, resumesAt: new Date(resumesAt) };
}

export function isPaused(endpoint: PauseSettings, now: Date): boolean {
  return pauseState(endpoint, now).paused;
}
