import { PayloadError } from '../../kind';
import type { ChatPayload } from '../template';
import { asObject, renderTemplate, templateData, truncateText } from '../template';
import type { TeamsConfig } from './config';

/**
 * "The message size limit is 28 KB. When the size exceeds 28 KB, you receive an error"
 * (Teams, Incoming Webhooks): Relay measures the JSON body it sends, in bytes, and cuts the
 * text it built to fit.
 */
export const MAX_BODY_BYTES = 28 * 1024;
export const TEXT_MARKER = '… (truncated)';
export const EMPTY_PAYLOAD_TEXT = '(empty payload)';
const CARD_TYPE = 'application/vnd.microsoft.card.adaptive';

/** The message's text: the template, else a text payload as itself, else the JSON pretty-printed. */
function textOf(config: TeamsConfig, payload: ChatPayload): { text: string; json: boolean } {
  if (config.template !== undefined)
    return { text: renderTemplate(config.template, templateData(payload)), json: false };
  if (payload.kind === 'empty') return { text: EMPTY_PAYLOAD_TEXT, json: false };
  if (payload.kind === 'text') return { text: payload.text, json: false };
  if (typeof payload.value === 'string') return { text: payload.value, json: false };
  return { text: JSON.stringify(payload.value, null, 2) ?? 'null', json: true };
}

/** A card of one wrapped TextBlock; JSON in monospace so its layout survives. */
function card(text: string, json: boolean): Record<string, unknown> {
  const block: Record<string, unknown> = { type: 'TextBlock', text, wrap: true };
  if (json) block.fontType = 'Monospace';
  return {
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.4',
    body: [block],
  };
}

/** The message envelope Workflows' Teams trigger reads: `attachments` of Adaptive Cards. */
const envelope = (content: Record<string, unknown>): Record<string, unknown> => ({
  type: 'message',
  attachments: [{ contentType: CARD_TYPE, contentUrl: null, content }],
});

const bytes = (body: unknown): number => Buffer.byteLength(JSON.stringify(body), 'utf8');

/**
 * The body of one attempt. A payload that is already an Adaptive Card (`type: AdaptiveCard`) or
 * a Teams message (`attachments`) is sent as it is (in the card format); otherwise Relay builds
 * one from the text, cut so the whole body stays within 28 KB. A passthrough that is too large
 * is the payload's problem: PayloadError, recorded as permanent without flagging the target.
 */
export function teamsMessage(config: TeamsConfig, payload: ChatPayload): Record<string, unknown> {
  const object =
    payload.kind === 'json' && config.template === undefined && config.format === 'adaptive_card'
      ? asObject(payload.value)
      : null;
  if (object && (object.type === 'AdaptiveCard' || Array.isArray(object.attachments))) {
    const body = object.type === 'AdaptiveCard' ? envelope(object) : object;
    if (bytes(body) > MAX_BODY_BYTES)
      throw new PayloadError(
        'PAYLOAD_TOO_LARGE',
        `the card is ${bytes(body)} bytes; Teams accepts at most ${MAX_BODY_BYTES}`,
      );
    return body;
  }
  const { text, json } = textOf(config, payload);
  const build = (t: string): Record<string, unknown> =>
    config.format === 'text' ? { text: t } : envelope(card(t, json));
  if (bytes(build(text)) <= MAX_BODY_BYTES) return build(text);
  // the longest prefix whose body fits; JSON escaping makes bytes ≠ characters, so measure
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (bytes(build(truncateText(text, mid, TEXT_MARKER))) <= MAX_BODY_BYTES) lo = mid;
    else hi = mid - 1;
  }
  return build(truncateText(text, lo, TEXT_MARKER));
}
