import { Router } from 'express';
import type { Request, Response } from 'express';
import { loadEndpoint } from '../adapters/endpoint-store';
import { GatewayUnavailableError } from '../adapters/gateway-client';
import { parseTestRequest } from '../domain/test-request';
import { accountOf } from './auth';
import { ApiError, notFound } from './errors';
import { checked, operation } from './operation';
import type { ReplayDeps } from './replay-deps';

const MINUTE_MS = 60_000;

/**
 * The body for the handler's own checks: a JSON object, else undefined (an array) — the
 * document already reports a body that is not an object as `(body)`; naming it again under the
 * handler's own field would report one problem twice.
 */
const jsonObject = (body: unknown): Record<string, unknown> | undefined =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;

function callerIp(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/**
 * POST /v1/endpoints/:endpointId/test — runs a request through the real ingest pipeline as if a
 * sender had sent it (docs/management-api.md "Test requests"): a gateway runs it (the spec's
 * steps live there only) with the endpoint's payload rules, and delivers it to the targets.
 * The owner needs no sender credentials, and the test counts against no rate limit or quota
 * but TEST_REQUESTS_PER_MINUTE of its own. Its row is in the Test group.
 * Role: editor (it delivers to the targets).
 */
export function testRequestRoutes(deps: ReplayDeps): Router {
  const r = Router();
  r.post(
    '/endpoints/:endpointId/test',
    ...operation('testEndpoint', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const account = accountOf(req);
      const endpoint = await loadEndpoint(deps.store, account, String(req.params.endpointId));
      if (!endpoint) throw notFound('Endpoint');
      const t = checked(req, parseTestRequest(jsonObject(req.body), endpoint, deps.now()));
      const allowed = await deps.limits.take(account, 'test', deps.testRequestsPerMinute, MINUTE_MS);
      if (!allowed.ok) {
        throw new ApiError(
          429,
          'too_many_test_requests',
          `At most ${deps.testRequestsPerMinute} test requests a minute. Retry after the delay in Retry-After.`,
          undefined,
          { 'Retry-After': String(allowed.retryAfterSeconds) },
        );
      }
      let answer;
      try {
        answer = await deps.gateway.run({
          endpoint_id: endpoint.id,
          method: t.method,
          headers: t.headers,
          query: t.query,
          body_base64: t.body.toString('base64'),
          source_ip: callerIp(req),
        });
      } catch (err) {
        if (!(err instanceof GatewayUnavailableError)) throw err;
        deps.logger.warn('test request not run: no gateway answered', { endpoint_id: endpoint.id, error: err.message });
        throw new ApiError(
          503,
          'gateway_unavailable',
          'No ingest gateway could run the test request. Retry after the delay in Retry-After.',
          undefined,
          { 'Retry-After': '5' },
        );
      }
      if (answer.accepted) {
        res.status(202).json({
          event_id: answer.event_id,
          outcome: 'ACCEPTED',
          target_count: answer.target_count,
          test: true,
          replayed: answer.replayed,
        });
        return;
      }
      res.status(422).json({
        code: 'test_request_rejected',
        message: `The ingest pipeline refused the test request: ${answer.message}`,
        event_id: answer.event_id,
        outcome: answer.outcome,
        reason: answer.reason,
        ingest_status: answer.status,
        ingest_code: answer.code,
      });
    },
  );
  return r;
}
