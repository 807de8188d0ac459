import { MAX_ORDER_KEY_LENGTH } from '@relay/contracts';
import { valueAt } from './routing';

/** Where a target's ordering key comes from (the stored `ordering.key`, docs/ordering.md). */
export type OrderKeySource = { from: 'path'; path: string } | { from: 'header'; header: string };

/** Reads one event's key: null when the event has none (the delivery then goes unordered). */
export type OrderKeyReader = (
  headers: Readonly<Record<string, string | string[] | undefined>>,
  data: unknown,
) => string | null;

/**
 * A payload field's value when it is a string or a number (as JSON writes it), or the first value
 * of a request header (names lower-cased, as Node gives them); an empty text, an object, an array,
 * a boolean or null is no key. A key longer than MAX_ORDER_KEY_LENGTH is cut to it: two keys that
 * share that much are ordered together, which keeps each in order.
 */
export function compileOrderKey(source: OrderKeySource): OrderKeyReader {
  const cut = (text: string): string | null => (text === '' ? null : text.slice(0, MAX_ORDER_KEY_LENGTH));
  if (source.from === 'header') {
    const name = source.header.toLowerCase();
    return (headers) => {
      const value = headers[name];
      const first = Array.isArray(value) ? value[0] : value;
      return typeof first === 'string' ? cut(first) : null;
    };
  }
  const segments = source.path.split('.');
  return (_headers, data) => {
    const value = valueAt(data, segments);
    if (typeof value === 'string') return cut(value);
    return typeof value === 'number' && Number.isFinite(value) ? cut(String(value)) : null;
  };
}
