import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/**
 * Prefixed random identifiers (`ep_…`, `evt_…`): 20 base32 characters = 100 bits, enough that
 * an endpoint id in a public URL cannot be guessed.
 */
export function newId(prefix: string, length = 20): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b & 31];
  return `${prefix}_${out}`;
}

/** The delivery id is stable across every attempt of one event × target. */
export function deliveryIdFor(eventId: string, targetId: string): string {
  return `dlv_${eventId.replace(/^evt_/, '')}_${targetId.replace(/^tg_/, '')}`;
}
