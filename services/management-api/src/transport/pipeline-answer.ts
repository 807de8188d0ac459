import type { Request, Response } from 'express';
import type { TestRequestAnswer, TestRequestEnvelope } from '@relay/contracts';
import { GatewayUnavailableError } from '../adapters/gateway-client';
import { ApiError } from './errors';
import type { ReplayDeps } from './replay-deps';

/**
 * Runs an envelope through a gateway's pipeline (a test request or a re-run): 503
 * gateway_unavailable when no gateway answered, nothing run.
 */
export async function runInGateway(
  deps: ReplayDeps,
  envelope: TestRequestEnvelope,
  what: string,
): Promise<TestRequestAnswer> {
  try {
    return await deps.gateway.run(envelope);
  } catch (err) {
    if (!(err instanceof GatewayUnavailableError)) throw err;
    deps.logger.warn(`${what} not run: no gateway answered`, { endpoint_id: envelope.endpoint_id, error: err.message });
    throw new ApiError(
      503,
      'gateway_unavailable',
      `No ingest gateway could run the ${what}. Retry after the delay in Retry-After.`,
      undefined,
      { 'Retry-After': '5' },
    );
  }
}

/**
 * The pipeline's answer as HTTP: 202 with the new event (and `accepted`, fields of the caller's),
 * or 422 `code` with what a sender would have been answered.
 */
export function sendPipelineAnswer(
  res: Response,
  answer: TestRequestAnswer,
  refusal: { code: string; what: string },
  accepted: Record<string, unknown>,
): void {
  if (answer.accepted) {
    res.status(202).json({
      event_id: answer.event_id,
      outcome: 'ACCEPTED',
      target_count: answer.target_count,
      ...accepted,
      replayed: answer.replayed,
    });
    return;
  }
  res.status(422).json({
    code: refusal.code,
    message: `The ingest pipeline refused the ${refusal.what}: ${answer.message}`,
    event_id: answer.event_id,
    outcome: answer.outcome,
    reason: answer.reason,
    ingest_status: answer.status,
    ingest_code: answer.code,
  });
}

export function callerIp(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}
