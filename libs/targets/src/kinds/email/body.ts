import type { ChatPayload } from '../template';

/** The parts of one email: always a text part; an HTML part only for JSON payloads. */
export interface EmailBody {
  text: string;
  html?: string;
}

/**
 * Spec "Feature interaction", row "Email formatting":
 * - None (and an absent optional Base64 parameter) → the empty payload: an empty text part.
 * - JSON, form, Query Parameters, Base64 JSON (the gateway delivers all four as JSON) → the
 *   payload formatted as JSON: pretty-printed with two spaces as the text part, and the same
 *   text HTML-escaped inside `<pre>` as the HTML part, so a payload can never add markup.
 * - XML and plain text → the text as received, as the only part.
 */
export function emailBody(payload: ChatPayload): EmailBody {
  if (payload.kind === 'empty') return { text: '' };
  if (payload.kind === 'text') return { text: payload.text };
  const text = JSON.stringify(payload.value, null, 2) ?? 'null';
  return { text, html: htmlDocument(text) };
}

function htmlDocument(json: string): string {
  return `<!doctype html>\n<html><head><meta charset="utf-8"></head><body><pre style="font-family:monospace;white-space:pre-wrap">${escapeHtml(json)}</pre></body></html>\n`;
}

/** The five characters that can start markup or end an attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
