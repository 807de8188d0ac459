/** A1 notation, as the Sheets API reads ranges. */

/** A sheet (tab) name quoted for a range: always in single quotes, a quote inside doubled. */
export function quoteSheet(name: string): string {
  return `'${name.replace(/'/g, "''")}'`;
}

/** 0 → A, 25 → Z, 26 → AA, … */
export function columnLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}
