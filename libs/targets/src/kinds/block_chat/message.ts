import type { ChatPayload } from '../template';
import { asObject, jsonCodeBlock, renderTemplate, templateData, truncateText } from '../template';
import type { BlockChatConfig } from './config';
import { CAPS, TEXT_MARKER, fitMessage } from './caps';

/** Sent when the endpoint delivered no bytes (format None): Slack refuses a message without text. */
export const EMPTY_PAYLOAD_TEXT = '(empty payload)';

/**
 * Slack reads `&`, `<` and `>` as control characters (`<!everyone>`, `<@U…>`, `<url|label>`);
 * escaped, relayed text shows as typed and cannot ping or forge links.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Spec "Forwarded request" → Chat targets, Block-style. Precedence: a configured template →
 * a payload that already has `text`, `blocks` or `attachments` (kept as sent) → the payload in
 * `text`. The markup switch off adds `mrkdwn: false` unless a passthrough payload set its own;
 * with blocks, each block's `text.type` decides formatting (the platform's rule).
 */
export function blockChatMessage(config: BlockChatConfig, payload: ChatPayload): Record<string, unknown> {
  const object = payload.kind === 'json' ? asObject(payload.value) : null;
  let message: Record<string, unknown>;
  if (config.template !== undefined) {
    // Template text is the operator's markup; only the values substituted into it are escaped.
    message = { text: renderTemplate(config.template, templateData(payload), escapeMrkdwn) };
  } else if (object && ['text', 'blocks', 'attachments'].some((k) => Object.prototype.hasOwnProperty.call(object, k))) {
    message = { ...object };
  } else {
    message = { text: defaultText(payload, config.markup) };
  }
  if (!config.markup && !Object.prototype.hasOwnProperty.call(message, 'mrkdwn')) message.mrkdwn = false;
  return fitMessage(message);
}

/**
 * "By default the payload is placed in the text field": a JSON string or a text body as
 * itself; other JSON pretty-printed, in a ``` block when markup is on (so `*`/`_` in the data
 * are not read as formatting), plain when it is off.
 */
function defaultText(payload: ChatPayload, markup: boolean): string {
  if (payload.kind === 'empty') return EMPTY_PAYLOAD_TEXT;
  if (payload.kind === 'text') return escapeMrkdwn(payload.text);
  if (typeof payload.value === 'string') return escapeMrkdwn(payload.value);
  if (markup) return jsonCodeBlock(payload.value, CAPS.text, { marker: `\n${TEXT_MARKER}`, escape: escapeMrkdwn });
  return truncateText(escapeMrkdwn(JSON.stringify(payload.value, null, 2) ?? 'null'), CAPS.text, TEXT_MARKER);
}
