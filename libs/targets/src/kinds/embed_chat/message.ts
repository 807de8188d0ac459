import type { ChatPayload } from '../template';
import { asObject, jsonCodeBlock, renderTemplate, templateData } from '../template';
import type { EmbedChatConfig } from './config';
import { CONTENT_MARKER, CAPS, fitMessage } from './caps';

/** Sent when the endpoint delivered no bytes (format None): Discord refuses an empty message. */
export const EMPTY_PAYLOAD_CONTENT = '(empty payload)';

/** Stops relayed text from pinging anyone, @everyone included (webhooks parse user mentions by default). */
export const NO_MENTIONS = { parse: [] as string[] };

/**
 * Spec "Forwarded request" → Chat targets, Embed-style. Precedence: a configured template
 * (the operator's explicit choice) → a payload with `content` and/or `embeds`, sent natively
 * with all its fields → the payload itself as the message content.
 */
export function embedChatMessage(config: EmbedChatConfig, payload: ChatPayload): Record<string, unknown> {
  const object = payload.kind === 'json' ? asObject(payload.value) : null;
  let message: Record<string, unknown>;
  if (config.template !== undefined) message = { content: renderTemplate(config.template, templateData(payload)) };
  else if (object && (hasOwn(object, 'content') || hasOwn(object, 'embeds'))) message = { ...object };
  else message = { content: defaultContent(payload) };

  // "A top-level tts boolean in the payload is passed on and kept; a destination-level tts
  // value applies only when the payload has none." A non-boolean tts counts as none.
  if (typeof object?.tts === 'boolean') message.tts = object.tts;
  else if (config.tts !== undefined) message.tts = config.tts;
  else delete message.tts;

  // The sender may opt in to mentions with its own top-level allowed_mentions object.
  const mentions = asObject(object?.allowed_mentions);
  message.allowed_mentions = mentions ?? NO_MENTIONS;
  return fitMessage(message);
}

/**
 * "By default the JSON payload is sent as the message content": a JSON string as itself,
 * any other JSON value pretty-printed in a ```json code block (readable, and Markdown in the
 * data is not interpreted), cut inside the block so the block still closes. Text, XML and
 * form bodies are sent as their text.
 */
function defaultContent(payload: ChatPayload): string {
  if (payload.kind === 'empty') return EMPTY_PAYLOAD_CONTENT;
  if (payload.kind === 'text') return payload.text;
  if (typeof payload.value === 'string') return payload.value;
  return jsonCodeBlock(payload.value, CAPS.content, { marker: `\n${CONTENT_MARKER}`, language: 'json' });
}

function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}
