import type { RequiredHeader } from '@relay/endpoints';
import { PASS, rejection } from './rejection';
import type { Check } from './rejection';

/** Request headers as Node delivers them (`IncomingHttpHeaders` fits). */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Spec "Authentication / Inbound" rule 2: every required header must be present; names match
 * case-insensitively, a configured value matches case-sensitively and the incoming value is
 * not trimmed. Missing or wrong → 400 REQUIRED_HEADER_MISSING, naming the header but never
 * echoing the expected value (it is often a shared secret).
 */
export function checkRequiredHeaders(required: readonly RequiredHeader[], headers: RequestHeaders): Check {
  if (required.length === 0) return PASS;
  const byName = new Map<string, string | string[]>();
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) byName.set(name.toLowerCase(), value);
  for (const header of required) {
    const received = byName.get(header.name.toLowerCase());
    if (received === undefined)
      return rejection(400, 'REQUIRED_HEADER_MISSING', `The required header ${header.name} is missing.`);
    if (header.value === undefined) continue;
    const values = Array.isArray(received) ? received : [received];
    if (!values.includes(header.value))
      return rejection(
        400,
        'REQUIRED_HEADER_MISSING',
        `The required header ${header.name} does not have the expected value.`,
      );
  }
  return PASS;
}
