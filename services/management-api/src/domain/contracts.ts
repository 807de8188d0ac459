import { compileContracts, validateContractSchemas } from '@relay/endpoints';
import type { ContractResult, PayloadContracts } from '@relay/endpoints';
import { validateKeySource } from '@relay/targets';
import type { FieldError, Validation } from '@relay/contracts';
import { fail, isRecord, ok } from './input-fields';

const CONTRACT_FIELDS = new Set(['event_type', 'mode', 'schemas']);

/**
 * An endpoint's `contracts` (docs/contracts.md): the event type read as a target's ordering key
 * is, the mode, the schemas; every problem at once, named under `at`.
 */
export function validateContracts(raw: unknown, at = 'contracts'): Validation<PayloadContracts> {
  if (!isRecord(raw)) return fail(at, 'must be an object {event_type, mode, schemas}, or null for none');
  const errors: FieldError[] = Object.keys(raw)
    .filter((k) => !CONTRACT_FIELDS.has(k))
    .map((k) => ({ field: `${at}.${k}`, message: 'is not a known field' }));
  const eventType = validateKeySource(raw.event_type, `${at}.event_type`);
  if (!eventType.ok) errors.push(...eventType.errors);
  const rest = validateContractSchemas(raw, at);
  if (!rest.ok) errors.push(...rest.errors);
  if (errors.length > 0 || !eventType.ok || !rest.ok) return { ok: false, errors };
  return ok({ event_type: eventType.value, ...rest.value });
}

/** What `POST /v1/endpoints/{id}/validate` answers. */
export type ValidationAnswer = ContractResult & { valid: boolean };

/**
 * The dry run: the payload checked with the contracts given (a draft) or the endpoint's; nothing
 * is delivered or recorded. `body` is the parsed payload, as the gateway reads it.
 */
export function validatePayload(
  contracts: PayloadContracts,
  input: { headers?: Record<string, string>; body?: unknown },
): ValidationAnswer {
  const headers = Object.fromEntries(Object.entries(input.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const result = compileContracts(contracts)(headers, input.body);
  return { valid: result.errors.length === 0, ...result };
}
