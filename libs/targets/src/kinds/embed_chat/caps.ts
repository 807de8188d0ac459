import { asObject, truncateText } from '../template';

/**
 * Discord's execute-webhook caps (shared/reference/chat-platforms.md). A message that breaks
 * one is refused whole (400 50035), so Relay cuts instead of losing the message: text is cut
 * with a marker, extra embeds are dropped with a note in `content`. Splitting into several
 * messages is not done: one delivery is one attempt is one request, so a retry can never
 * re-post half a message.
 */
export const CAPS = {
  content: 2000,
  embeds: 10,
  embedTotal: 6000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footerText: 2048,
  authorName: 256,
} as const;

/** Appended where Relay cut a message's own text. */
export const CONTENT_MARKER = '… (truncated)';
/** Where an embed string was cut (embed space is scarce, so one character). */
export const EMBED_MARKER = '…';

export function omittedEmbedsNote(count: number): string {
  return `(${count} embed${count === 1 ? '' : 's'} omitted: Discord allows ${CAPS.embeds} embeds and ${CAPS.embedTotal} embed characters per message)`;
}

/** Applies every limit to a message body in place of the original; returns the fitted body. */
export function fitMessage(message: Record<string, unknown>): Record<string, unknown> {
  const out = { ...message };
  let note = '';
  if (Array.isArray(out.embeds)) {
    const { embeds, omitted } = fitEmbeds(out.embeds);
    out.embeds = embeds;
    if (omitted > 0) note = omittedEmbedsNote(omitted);
  }
  if (typeof out.content === 'string' || note) {
    const content = typeof out.content === 'string' ? out.content : '';
    if (!note) out.content = truncateText(content, CAPS.content, CONTENT_MARKER);
    else if (!content) out.content = note;
    else out.content = `${truncateText(content, CAPS.content - note.length - 1, CONTENT_MARKER)}\n${note}`;
  }
  return out;
}

/**
 * Keeps embeds in order: each string is cut to its own limit and to what is left of the
 * 6,000-character budget shared by all embeds; embeds past the 10th, or once the budget is
 * spent, are dropped. Values that are not strings are left for Discord to judge.
 */
export function fitEmbeds(input: readonly unknown[]): { embeds: unknown[]; omitted: number } {
  let budget: number = CAPS.embedTotal;
  const take = (value: unknown, limit: number): unknown => {
    if (typeof value !== 'string') return value;
    const text = truncateText(value, Math.min(limit, budget), EMBED_MARKER);
    budget -= text.length;
    return text;
  };
  const embeds: unknown[] = [];
  for (const item of input.slice(0, CAPS.embeds)) {
    const embed = asObject(item);
    if (!embed) {
      embeds.push(item);
      continue;
    }
    if (budget <= 0) break;
    const out: Record<string, unknown> = { ...embed };
    setOrDrop(out, 'title', take(embed.title, CAPS.title));
    setOrDrop(out, 'description', take(embed.description, CAPS.description));
    const author = asObject(embed.author);
    if (author) out.author = withText(author, 'name', take(author.name, CAPS.authorName));
    const footer = asObject(embed.footer);
    if (footer) out.footer = withText(footer, 'text', take(footer.text, CAPS.footerText));
    if (Array.isArray(embed.fields)) out.fields = fitFields(embed.fields, take, () => budget);
    embeds.push(out);
  }
  return { embeds, omitted: input.length - embeds.length };
}

type Take = (value: unknown, limit: number) => unknown;

function fitFields(fields: readonly unknown[], take: Take, budget: () => number): unknown[] {
  const out: unknown[] = [];
  for (const item of fields.slice(0, CAPS.fields)) {
    const field = asObject(item);
    if (!field) {
      out.push(item);
      continue;
    }
    // A field needs a non-empty name and value; stop once both no longer fit.
    if (budget() < 2) break;
    const nameLimit = Math.min(CAPS.fieldName, budget() - 1);
    out.push({ ...field, name: take(field.name, nameLimit), value: take(field.value, CAPS.fieldValue) });
  }
  return out;
}

function setOrDrop(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value === '' || value === undefined) delete target[key];
  else target[key] = value;
}

function withText(obj: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  return value === undefined ? obj : { ...obj, [key]: value };
}

/** Characters Discord counts toward the 6,000 total (used by tests and the fake server). */
export function embedCharacters(embeds: readonly unknown[]): number {
  let total = 0;
  const add = (v: unknown): void => {
    if (typeof v === 'string') total += v.trim().length;
  };
  for (const item of embeds) {
    const e = asObject(item);
    if (!e) continue;
    add(e.title);
    add(e.description);
    add(asObject(e.author)?.name);
    add(asObject(e.footer)?.text);
    if (!Array.isArray(e.fields)) continue;
    for (const f of e.fields) {
      add(asObject(f)?.name);
      add(asObject(f)?.value);
    }
  }
  return total;
}
