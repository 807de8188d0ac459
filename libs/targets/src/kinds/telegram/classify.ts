import type { AttemptResult, SendOutcome } from '../../kind';
import { chatNetworkFailure, retryAfterHeaderMs, safeErrorText } from '../template';
import { BOT_TOKEN } from './config';

/**
 * A Bot API answer (docs/targets-chat.md "Telegram"): `{ ok, result }` on success; on failure
 * `{ ok: false, error_code, description, parameters? }` where `parameters.retry_after` is the
 * seconds to wait after flood control (429) and `parameters.migrate_to_chat_id` the new id of a
 * group that became a supergroup.
 */
interface BotApiAnswer {
  ok?: unknown;
  error_code?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown; migrate_to_chat_id?: unknown };
}

/**
 * Success is a 2xx that does not say `ok: false`. 429 (flood control) retries after `parameters.retry_after`,
 * as do 5xx and 408. The rest is permanent: 401/404 (the token is wrong or revoked), 403 (the
 * bot was blocked, kicked or is not a member) and 400 "chat not found" or a migrated group flag
 * the target — each needs the operator; any other 400 (a text Telegram cannot parse) is this
 * message's problem and does not.
 */
export function classifyTelegram(outcome: SendOutcome): AttemptResult {
  if ('error' in outcome) return chatNetworkFailure(outcome.error.code);
  const { status, headers, body } = outcome.response;
  const answer = parse(body);
  // the answer echoes the sent message, so a long one is cut at the kept 4 KB and does not
  // parse: a 2xx is success unless it says `ok: false`
  if (status >= 200 && status < 300 && answer?.ok !== false) return { result: 'success', status };
  const error = describe(status, answer);
  if (status === 429)
    return { result: 'retry', status, error, retryAfterMs: retryAfterMs(answer) ?? retryAfterHeaderMs(headers) };
  if (status === 408 || status >= 500)
    return { result: 'retry', status, error, retryAfterMs: retryAfterHeaderMs(headers) };
  if (status < 300) return { result: 'permanent', status, error, flagTarget: false };
  const description = typeof answer?.description === 'string' ? answer.description : '';
  const migrated = answer?.parameters?.migrate_to_chat_id !== undefined;
  const flagTarget =
    status === 401 || status === 403 || status === 404 || migrated || /chat not found/i.test(description);
  return { result: 'permanent', status, error, flagTarget };
}

function parse(body: string): BotApiAnswer | null {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as BotApiAnswer) : null;
  } catch {
    return null;
  }
}

function retryAfterMs(answer: BotApiAnswer | null): number | undefined {
  const seconds = answer?.parameters?.retry_after;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
    ? Math.ceil(seconds * 1000)
    : undefined;
}

/**
 * `Telegram 403: Forbidden: bot was blocked by the user`. Telegram's descriptions never hold the
 * token, but anything shaped like one is cut out anyway: the error is stored in the activity log.
 */
function describe(status: number, answer: BotApiAnswer | null): string {
  const text = typeof answer?.description === 'string' ? answer.description : '';
  const migrated = answer?.parameters?.migrate_to_chat_id;
  const hint = typeof migrated === 'number' ? ` (the group is now supergroup ${migrated}: set it as the chat id)` : '';
  const clean = safeErrorText(text.replace(new RegExp(BOT_TOKEN.source.slice(1, -1), 'g'), '****'));
  return `Telegram ${status}${clean ? `: ${clean}` : ''}${hint}`;
}
