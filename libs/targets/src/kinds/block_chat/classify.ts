import type { AttemptResult, SendOutcome } from '../../kind';
import { chatNetworkFailure, retryAfterHeaderMs } from '../template';

/**
 * Slack's plain-text error bodies, by what they mean for the target
 * (shared/reference/chat-platforms.md). "Gone" errors flag the target for the operator: the
 * webhook was revoked, its channel deleted or archived, or the app removed.
 */
export const SLACK_ERRORS = {
  /** the message itself is wrong: retrying the same bytes cannot succeed */
  invalid: [
    'invalid_payload',
    'no_text',
    'invalid_blocks',
    'invalid_blocks_format',
    'too_many_attachments',
    'invalid_attachments',
    'missing_text_or_fallback_or_attachments',
  ],
  /** the destination is gone or refuses this webhook */
  gone: [
    'action_prohibited',
    'invalid_token',
    'channel_not_found',
    'no_service',
    'no_service_id',
    'no_team',
    'team_disabled',
    'channel_is_archived',
    'posting_to_general_channel_denied',
  ],
  /** Slack-side failure */
  transient: ['rollup_error'],
} as const;

const GONE = new Set<string>(SLACK_ERRORS.gone);
const TRANSIENT = new Set<string>(SLACK_ERRORS.transient);

/**
 * Slack incoming-webhook responses: 200 `ok` is success; 429 and 5xx (rollup_error) retry,
 * honouring Retry-After; every other error is permanent, and 403/404/410 or a "gone" error
 * code also flag the target. The stored error is Slack's error code only (a token like
 * `channel_not_found`), so it cannot carry the webhook URL.
 */
export function classifyBlockChat(outcome: SendOutcome): AttemptResult {
  if ('error' in outcome) return chatNetworkFailure(outcome.error.code);
  const { status, body, headers } = outcome.response;
  if (status >= 200 && status < 300) return { result: 'success', status };
  const code = slackErrorCode(body);
  const error = `Slack ${status}${code ? ` ${code}` : ''}`;
  if (status === 429) return { result: 'retry', status, error, retryAfterMs: retryAfterHeaderMs(headers) };
  if (status === 408 || status >= 500 || (code !== null && TRANSIENT.has(code))) {
    return { result: 'retry', status, error, retryAfterMs: retryAfterHeaderMs(headers) };
  }
  const flagTarget = status === 403 || status === 404 || status === 410 || (code !== null && GONE.has(code));
  return { result: 'permanent', status, error, flagTarget };
}

/** Slack answers with a bare error token; anything else (an HTML page, a proxy's text) is not one. */
function slackErrorCode(body: string): string | null {
  const token = body.trim();
  return /^[a-z][a-z0-9_]{1,63}$/.test(token) ? token : null;
}
