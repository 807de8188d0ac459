import {
  compileContracts,
  compileOrderKey,
  contractSummary,
  UnusableContractError,
  UnusablePatternError,
} from '@relay/endpoints';
import type {
  ContractCheck,
  ContractMode,
  ContractResult,
  OrderKeyReader,
  PayloadContracts,
  PayloadFormat,
} from '@relay/endpoints';
import { rejections } from '../errors';
import type { IngestRejection } from '../errors';
import { featuresFor } from '../payload/features';
import type { RequestHeaders } from './required-headers';

/** An endpoint's contracts ready to run (each schema compiled by ajv when first used). */
export interface CompiledContracts {
  check: ContractCheck;
  mode: ContractMode;
  /** the event type alone (drift learns a shape per type) */
  eventType: OrderKeyReader;
}

export function prepareContracts(contracts: PayloadContracts | null | undefined): CompiledContracts | null {
  if (!contracts) return null;
  return { check: compileContracts(contracts), mode: contracts.mode, eventType: compileOrderKey(contracts.event_type) };
}

/**
 * After the content rules (docs/contracts.md): where the payload format has fields, the event
 * type's schema on the parsed payload. `refuse`: a failing payload is a 400 `contract_violation`
 * (kept in quarantine like the other content refusals); `mark`: accepted, and `violation` is
 * the row's summary. A stored schema or pattern that cannot be compiled answers 503. What the
 * schema's patterns may cost on the payload (docs/security.md "Rule cost") is found first: over
 * `inlineCost` the payload is refused (413 `contract_too_costly`) without running them.
 */
export function checkContract(
  contracts: CompiledContracts | null,
  format: PayloadFormat,
  headers: RequestHeaders,
  data: unknown,
  inlineCost: number,
): { rejection: IngestRejection } | { violation: string | null } {
  if (contracts === null || featuresFor(format, data).fieldValidation === false) return { violation: null };
  if (contracts.check.cost(headers, data) > inlineCost) return { rejection: rejections.contractTooCostly() };
  let result: ContractResult;
  try {
    result = contracts.check(headers, data);
  } catch (err) {
    if (err instanceof UnusableContractError || err instanceof UnusablePatternError)
      return { rejection: rejections.endpointUnavailable(err.message) };
    throw err;
  }
  if (result.errors.length === 0) return { violation: null };
  return contracts.mode === 'refuse'
    ? { rejection: rejections.contractViolation(result) }
    : { violation: contractSummary(result) };
}
