// Names and text from outside as the dashboard shows them: control and invisible format
// characters escaped, the one rule every display follows (libs/contracts display-text.ts).
import { displayText } from '../../../../../libs/contracts/src/display-text';

export { displayText };

/** A property that holds a name people read: `name`, or one ending in `_name` (`actor_name`). */
const isNameKey = (key: string): boolean => key === 'name' || key.endsWith('_name');

/**
 * An API answer with every name in it (at any depth) as displayText shows it. Applied once, to
 * each answer the dashboard reads, so that every page — activity, targets, keys, alerts, audit —
 * shows a name stored before invisible characters were refused escaped, and a form pre-filled
 * with it saves the escaped text, which the API accepts, rather than the characters it refuses.
 */
export function namesShown(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(namesShown);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = typeof v === 'string' && isNameKey(k) ? displayText(v) : namesShown(v);
  return out;
}
