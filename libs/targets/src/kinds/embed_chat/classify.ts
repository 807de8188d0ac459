import type { AttemptResult, ResponseSummary, SendOutcome } from '../../kind';
import { chatNetworkFailure, asObject, retryAfterHeaderMs, safeErrorText } from '../template';

/** Discord JSON error codes Relay acts on (shared/reference/chat-platforms.md). */
export const DISCORD_CODES = {
  unknownWebhook: 10015,
  invalidWebhookToken: 50027,
  invalidFormBody: 50035,
  emptyMessage: 50006,
  invalidJson: 50109,
  requestTooLarge: 40005,
} as const;

/**
 * Discord execute-webhook responses. Retry only what can succeed later (429, 5xx, network);
 * 401/403/404 stop and flag the target: repeating invalid requests gets the sending IP
 * banned by Discord, and an unknown webhook (10015) has been deleted. Error texts are built
 * from Discord's `message`/`code`, never from the request, so they cannot carry the token.
 */
export function classifyEmbedChat(outcome: SendOutcome): AttemptResult {
  if ('error' in outcome) return chatNetworkFailure(outcome.error.code);
  const { status } = outcome.response;
  if (status >= 200 && status < 300) return { result: 'success', status };
  const body = parseBody(outcome.response);
  const detail = describe(status, body);
  if (status === 429) {
    const global = body?.global === true ? ' (global)' : '';
    return {
      result: 'retry',
      status,
      error: `Discord rate limited${global}`,
      retryAfterMs: retryAfterMs(outcome.response, body),
    };
  }
  if (status === 408 || status >= 500) return { result: 'retry', status, error: detail };
  const flagTarget =
    status === 401 || status === 403 || (status === 404 && body?.code === DISCORD_CODES.unknownWebhook);
  return { result: 'permanent', status, error: detail, flagTarget };
}

interface DiscordError {
  message?: unknown;
  code?: unknown;
  retry_after?: unknown;
  global?: unknown;
  errors?: unknown;
}

function parseBody(res: ResponseSummary): DiscordError | null {
  try {
    return asObject(JSON.parse(res.body)) as DiscordError | null;
  } catch {
    return null; // e.g. an HTML page from Cloudflare, or a truncated body
  }
}

/** The JSON `retry_after` (float seconds) is more precise than the header; fall back to headers. */
function retryAfterMs(res: ResponseSummary, body: DiscordError | null): number | undefined {
  if (typeof body?.retry_after === 'number' && Number.isFinite(body.retry_after) && body.retry_after >= 0) {
    return Math.ceil(body.retry_after * 1000);
  }
  return retryAfterHeaderMs(res.headers) ?? retryAfterHeaderMs(res.headers, 'x-ratelimit-reset-after');
}

/** e.g. `Discord 400 50035 Invalid Form Body (embeds.0.title: Must be 256 or fewer in length.)` */
function describe(status: number, body: DiscordError | null): string {
  if (!body) return `Discord HTTP ${status}`;
  const code = typeof body.code === 'number' ? ` ${body.code}` : '';
  const message = typeof body.message === 'string' ? ` ${body.message}` : '';
  const field = firstFieldError(body.errors, '');
  return safeErrorText(`Discord ${status}${code}${message}${field ? ` (${field})` : ''}`, 200);
}

/** Discord nests form errors as `{field: {0: {title: {_errors: [{code, message}]}}}}`. */
function firstFieldError(errors: unknown, path: string): string | null {
  const node = asObject(errors);
  if (!node) return null;
  const list = node._errors;
  if (Array.isArray(list) && list.length > 0) {
    const msg = asObject(list[0])?.message;
    return `${path || 'body'}: ${typeof msg === 'string' ? msg : 'invalid'}`;
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === '_errors') continue;
    const found = firstFieldError(child, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return null;
}
