/** Times are shown and entered in UTC (the spec's "Time (UTC)" column). */
export function utc(iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A UTC time box's text (`2030-01-01 10:30`, or with a `T`) → ISO 8601; undefined when empty.
 * Text that is no such time is passed on as typed: the API names the problem at its field.
 * (A `datetime-local` box would show the browser's local format under a "UTC" label.)
 */
export function fromLocalInput(value: string): string | undefined {
  const text = value.trim().replace(' ', 'T');
  if (!text) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text)
    ? Date.parse(`${text.length === 16 ? `${text}:00` : text}Z`)
    : Number.NaN;
  return Number.isNaN(ms) ? value.trim() : new Date(ms).toISOString();
}

/** ISO 8601 → a UTC time box's text, `2030-01-01 10:30`. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 16).replace('T', ' ');
}

/** What a UTC time box shows and takes: the same text in every browser and locale. */
export const UTC_INPUT = {
  type: 'text',
  inputMode: 'numeric',
  placeholder: 'YYYY-MM-DD HH:MM',
  autoComplete: 'off',
  spellcheck: false,
} as const;
