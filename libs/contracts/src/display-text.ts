/**
 * Characters a display must not pass on as they are: C0 controls, DEL and C1 controls (a
 * terminal acts on ESC sequences; a line break starts a new line), and invisible format
 * characters, Unicode category Cf (bidi overrides and isolates, zero-width characters), which
 * make text display as something it is not.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\p{Cf}]/gu;

/**
 * Text that came from outside — a sender, a target's answer, a name stored before such names
 * were refused — as every display shows it: each unsafe character as its escape (`\u001B`,
 * `\u202E`, `\u{E0001}`), everything printable unchanged. Stored text stays as it came; this is
 * applied where it is shown (the CLI, the dashboard, alerts).
 */
export function displayText(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.codePointAt(0)!.toString(16).toUpperCase();
    return code.length > 4 ? `\\u{${code}}` : `\\u${code.padStart(4, '0')}`;
  });
}
