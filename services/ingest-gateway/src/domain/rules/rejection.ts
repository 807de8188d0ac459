import type { Outcome } from '@relay/contracts';

/**
 * Result of a content check (payload, required headers, body filters, field validation, IP
 * lists, captcha). Domain checks return rejections instead of throwing: a refused request is
 * an expected outcome. `code` is the activity-log outcome; the transport maps it to the
 * response body's lower-case `code`.
 */
export interface Rejection {
  ok: false;
  status: 400 | 403 | 413 | 415;
  code: Outcome;
  /** safe to show the sender: never echoes a configured secret, value or pattern */
  message: string;
}

export type Check = { ok: true } | Rejection;

export const PASS: Check = { ok: true };

export function rejection<S extends Rejection['status']>(
  status: S,
  code: Outcome,
  message: string,
): Rejection & { status: S } {
  return { ok: false, status, code, message };
}
