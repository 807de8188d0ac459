import { argsOf, carriedOf, requestOf } from './request';
import { ResultError } from './result-error';
import type { Carried, TransformContext, TransformRequest } from './request';
import type { CallArgs, RunResult } from './sandbox';

export const TRANSFORM_SCOPES = ['endpoint', 'target'] as const;
export type TransformScope = (typeof TRANSFORM_SCOPES)[number];

/** One saved transformation as it runs: which scope, which version, its code. */
export interface Transformation {
  scope: TransformScope;
  version: number;
  code: string;
}

/** Runs code in the sandbox for a tenant (TransformRunner.call, or a Sandbox's in one thread). */
export type RunCode = (tenant: string, code: string, args: CallArgs) => Promise<RunResult>;

/** One transformation that ran: what it saw (its request: `inputOf`), what it gave, its console lines and time. */
export interface Ran {
  scope: TransformScope;
  version: number;
  from: Carried;
  /** what it gave: undefined when it failed; null when it dropped the event (its request: `outputOf`) */
  carried?: Carried | null;
  logs: string[];
  duration_ms: number;
}

export type Transformed =
  | { result: 'pass'; carried: Carried; ran: Ran[] }
  | { result: 'dropped'; scope: TransformScope; ran: Ran[] }
  | { result: 'failed'; scope: TransformScope; error: string; message: string; line: number | null; ran: Ran[] };

/**
 * Applies the chain in order (the endpoint's, then the target's): each sees what the one before
 * returned. `null` drops the event for this scope; a throw, a timeout, a result that is not a
 * request or is larger than `maxOutputBytes` fail it, with the message and line.
 */
export async function applyTransformations(
  run: RunCode,
  tenant: string,
  chain: readonly Transformation[],
  carried: Carried,
  context: TransformContext,
  maxOutputBytes: number,
): Promise<Transformed> {
  const ran: Ran[] = [];
  let current = carried;
  for (const t of chain) {
    const r = await run(tenant, t.code, argsOf(current, context));
    const from = current;
    const step: Ran = { scope: t.scope, version: t.version, from, logs: r.logs, duration_ms: round(r.durationMs) };
    ran.push(step);
    const fail = (message: string, line: number | null): Transformed => ({
      result: 'failed',
      scope: t.scope,
      error: `${t.scope} transformation v${t.version}${line === null ? '' : `, line ${line}`}: ${message}`,
      message,
      line,
      ran,
    });
    if (!r.ok) return fail(r.failure.message, r.failure.line);
    if (r.json === undefined) return fail('returned nothing: return the request, or null to drop the event', null);
    if (Buffer.byteLength(r.json) > maxOutputBytes)
      return fail(`the result is ${Buffer.byteLength(r.json)} bytes; at most ${maxOutputBytes}`, null);
    const value = JSON.parse(r.json) as unknown;
    if (value === null) {
      step.carried = null;
      return { result: 'dropped', scope: t.scope, ran };
    }
    try {
      current = carriedOf(value, current, context.endpoint.id);
    } catch (err) {
      if (err instanceof ResultError) return fail(`invalid result: ${err.message}`, null);
      throw err;
    }
    step.carried = current;
  }
  return { result: 'pass', carried: current, ran };
}

const round = (ms: number): number => Math.round(ms * 10) / 10;

/** The request a step was called with. */
export function inputOf(step: Ran, endpointId: string): TransformRequest {
  return requestOf(step.from, endpointId);
}

/** The request a step returned, as the next step (or a preview) sees it; null when it dropped the event. */
export function outputOf(step: Ran, endpointId: string): TransformRequest | null | undefined {
  return step.carried ? requestOf(step.carried, endpointId) : step.carried;
}
