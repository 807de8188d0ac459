/**
 * The payload's pretty view: JSON indented by two spaces, XML one element a
 * line, indented by depth; null when the text is neither (or does not parse): the raw view is
 * then the only one. Pure, so the unit tests cover it case by case.
 */
export function prettyPayload(text: string, contentType: string | null): string | null {
  const type = (contentType ?? '').toLowerCase();
  const trimmed = text.trim();
  if (type.includes('json') || /^[[{]/.test(trimmed)) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return null;
    }
  }
  if (type.includes('xml') || trimmed.startsWith('<')) return prettyXml(trimmed);
  return null;
}

/** One tag or text run a line: an opening tag indents what follows, a closing one outdents. */
function prettyXml(xml: string): string | null {
  const parts = xml.match(/<[^>]+>|[^<]+/g);
  if (!parts) return null;
  const lines: string[] = [];
  let depth = 0;
  for (const raw of parts) {
    const part = raw.trim();
    if (part === '') continue;
    if (part.startsWith('</')) depth = Math.max(0, depth - 1);
    lines.push(`${'  '.repeat(depth)}${part}`);
    const opens =
      part.startsWith('<') &&
      !part.startsWith('</') &&
      !part.startsWith('<?') &&
      !part.startsWith('<!') &&
      !part.endsWith('/>');
    if (opens) depth += 1;
  }
  // a text run between its tags stays on their line: <a>text</a>
  return lines.join('\n').replace(/^( *)(<[^/!?][^>]*[^/]>|<[^/!?]>)\n *([^<\n]+)\n *(<\/[^>]+>)$/gm, '$1$2$3$4');
}

/** `1.2 KB`, `512 B`: the payload's size as the detail shows it. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(2)} MB`;
}
