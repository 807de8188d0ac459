import type { ChatPayload } from '../template';
import { renderTemplate, templateData, truncateText } from '../template';
import type { TelegramConfig, TelegramParseMode } from './config';

/**
 * Bot API sendMessage: "Text of the message to be sent, 1-4096 characters after entities
 * parsing". Relay cuts the text it builds to fit, with a visible marker, counting UTF-16 code
 * units as Telegram's entity offsets do; markup is counted too, so the cut is never late.
 */
export const MAX_TEXT = 4096;
export const TEXT_MARKER = '… (truncated)';
/** Sent (escaped for the parse mode) when the endpoint delivered no bytes (format None): Telegram refuses an empty text. */
export const EMPTY_PAYLOAD_TEXT = '(empty payload)';

/** HTML mode: only `<`, `>` and `&` must be escaped in text (Bot API "HTML style"). */
const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** MarkdownV2: every one of these characters must be escaped with `\` (Bot API "MarkdownV2 style"). */
const escapeMarkdownV2 = (s: string): string => s.replace(/[_*[\]()~`>#+\-=|{}.!\\]/g, '\\$&');
/** Inside ```pre``` blocks only `` ` `` and `\` must be escaped. */
const escapeMarkdownV2Pre = (s: string): string => s.replace(/[`\\]/g, '\\$&');

export const ESCAPE: Record<TelegramParseMode, (s: string) => string> = {
  none: (s) => s,
  HTML: escapeHtml,
  MarkdownV2: escapeMarkdownV2,
};

/**
 * The text for one delivery: the template with payload values escaped for the parse mode; else
 * a text payload (or a JSON string) as itself; else the JSON payload pretty-printed, in a
 * preformatted block when a parse mode is on.
 */
export function telegramText(config: Pick<TelegramConfig, 'template' | 'parse_mode'>, payload: ChatPayload): string {
  const mode = config.parse_mode;
  const escape = ESCAPE[mode];
  if (config.template !== undefined) return fit(renderTemplate(config.template, templateData(payload), escape), mode);
  if (payload.kind === 'empty') return escape(EMPTY_PAYLOAD_TEXT);
  if (payload.kind === 'text') return fitEscaped(payload.text, mode, escape);
  if (typeof payload.value === 'string') return fitEscaped(payload.value, mode, escape);
  const json = JSON.stringify(payload.value, null, 2) ?? 'null';
  if (mode === 'HTML') return `<pre>${fitEscaped(json, mode, escapeHtml, '<pre></pre>'.length)}</pre>`;
  if (mode === 'MarkdownV2')
    return `\`\`\`\n${fitEscaped(json, mode, escapeMarkdownV2Pre, '```\n\n```'.length)}\n\`\`\``;
  return truncateText(json, MAX_TEXT, TEXT_MARKER);
}

/** The marker itself must be escaped in MarkdownV2 (its `(` and `)`); plain elsewhere. */
const marker = (mode: TelegramParseMode): string => ESCAPE[mode](TEXT_MARKER);

/**
 * Cuts raw text before escaping it, so no escape sequence or entity is split: the escaped text
 * plus `reserve` (the wrapping markup) stays within the limit.
 */
function fitEscaped(raw: string, mode: TelegramParseMode, escape: (s: string) => string, reserve = 0): string {
  const budget = MAX_TEXT - reserve;
  const whole = escape(raw);
  if (whole.length <= budget) return whole;
  const room = budget - marker(mode).length;
  let lo = 0;
  let hi = raw.length;
  // the longest prefix whose escaped form fits (escaping only ever grows a text)
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (escape(truncateText(raw, mid, '')).length <= room) lo = mid;
    else hi = mid - 1;
  }
  return escape(truncateText(raw, lo, '')) + marker(mode);
}

/**
 * A rendered template is the operator's markup: cut as plain text would be. A cut inside a tag
 * or an entity makes Telegram answer 400 "can't parse entities" — recorded, not retried.
 */
function fit(text: string, mode: TelegramParseMode): string {
  const out = truncateText(text, MAX_TEXT, marker(mode));
  return out.trim() === '' ? ESCAPE[mode](EMPTY_PAYLOAD_TEXT) : out;
}

/** The sendMessage body. Link previews are off: a relayed URL should not fetch a page. */
export function telegramMessage(config: TelegramConfig, payload: ChatPayload): Record<string, unknown> {
  const body: Record<string, unknown> = {
    chat_id: config.chat_id,
    text: telegramText(config, payload),
    link_preview_options: { is_disabled: true },
  };
  if (config.parse_mode !== 'none') body.parse_mode = config.parse_mode;
  if (config.disable_notification) body.disable_notification = true;
  return body;
}
