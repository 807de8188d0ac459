import type { AttemptResult, SendOutcome } from '../../kind';
import { chatNetworkFailure, retryAfterHeaderMs, safeErrorText } from '../template';

/**
 * Teams answers (docs/targets-chat.md "Microsoft Teams"): a Workflows trigger answers 202
 * Accepted, a legacy Incoming Webhook 200 with body `1` — both success. Errors carry Azure's
 * envelope `{"error": {"code", "message"}}`; the legacy connector may answer 200 with a text
 * saying "…returned HTTP error 413", which is read as that status. 429 (more than four
 * requests a second) retries after Retry-After, as do 5xx and 408. 413 (over 28 KB) and 400
 * are this message's problem; 401/403/404/409/410 mean the flow is gone, disabled or its URL
 * revoked, so they flag the target.
 */
export function classifyTeams(outcome: SendOutcome): AttemptResult {
  if ('error' in outcome) return chatNetworkFailure(outcome.error.code);
  const { headers, body } = outcome.response;
  const legacy = /returned HTTP error (\d{3})/.exec(body);
  const status = outcome.response.status < 300 && legacy ? Number(legacy[1]) : outcome.response.status;
  if (status >= 200 && status < 300) return { result: 'success', status };
  const code = errorCode(body);
  const error = `Teams ${status}${code ? ` ${code}` : ''}`;
  if (status === 429 || status === 408 || status >= 500)
    return { result: 'retry', status, error, retryAfterMs: retryAfterHeaderMs(headers) };
  const flagTarget = [401, 403, 404, 409, 410].includes(status);
  return { result: 'permanent', status, error, flagTarget };
}

/** Only the error's code (a token like `WorkflowNotFound`): messages can quote the URL. */
function errorCode(body: string): string | null {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' && /^[A-Za-z][\w.]{0,79}$/.test(code) ? safeErrorText(code, 80) : null;
  } catch {
    return null;
  }
}
