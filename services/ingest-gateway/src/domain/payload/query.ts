/**
 * Query strings are read with the WHATWG application/x-www-form-urlencoded parser (what
 * URLSearchParams implements): `&` separates pairs, empty pairs are skipped, the first `=`
 * separates name from value, `+` means a space, percent-escapes decode as UTF-8 and invalid
 * escapes stay as written. The same parser reads form bodies.
 */

/** Non-empty `&`-separated pairs, the unit of the spec's 64-pair limit. */
export function countQueryPairs(rawQuery: string): number {
  return rawQuery.split('&').filter((pair) => pair !== '').length;
}

/**
 * Spec "Query Parameters": a flat object; a single value is a string, a repeated name an
 * array of strings in order, an empty value or a name without `=` the empty string.
 * Built with `Object.fromEntries`, so a name such as `__proto__` is an ordinary key.
 */
export function parseQueryObject(rawQuery: string): Record<string, string | string[]> {
  const values = new Map<string, string[]>();
  // A leading '&' keeps URLSearchParams from dropping a '?' that belongs to the first name.
  for (const [name, value] of new URLSearchParams(`&${rawQuery}`)) {
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
  }
  return Object.fromEntries([...values].map(([name, list]) => [name, list.length === 1 ? list[0]! : list]));
}

/**
 * The value of the first parameter named `name`, percent-decoded but with `+` kept as `+`:
 * spec "Query Parameters (Base64 JSON)" accepts an unescaped `+` of the standard Base64
 * alphabet. The name itself is form-decoded, so a sender percent-encodes `+` or `&` in it.
 * `undefined` when no pair has that name.
 */
export function rawParamValue(rawQuery: string, name: string): string | undefined {
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    if (formDecode(rawName) !== name) continue;
    return eq === -1 ? '' : formDecode(pair.slice(eq + 1).replace(/\+/g, '%2B'));
  }
  return undefined;
}

/** Decodes one name or value (no `&` inside) exactly as URLSearchParams does. */
function formDecode(component: string): string {
  return new URLSearchParams(`x=${component}`).get('x') ?? '';
}
