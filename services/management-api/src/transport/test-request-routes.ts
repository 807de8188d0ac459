import { Router } from 'express';
import type { Request, Response } from 'express';
import { loadEndpoint } from '../adapters/endpoint-store';
import { parseTestRequest } from '../domain/test-request';
import { accountOf } from './auth';
import { ApiError, notFound } from './errors';
import { checked, operation } from './operation';
import { callerIp, runInGateway, sendPipelineAnswer } from './pipeline-answer';
import type { ReplayDeps } from './replay-deps';

const MINUTE_MS = 60_000;

/**
 * The body for the handler's own checks: a JSON object, else undefined (an array) — the
 * document already reports a body that is not an object as `(body)`; naming it again under the
 * handler's own field would report one problem twice.
 */
const jsonObject = (body: unknown): Record<string, unknown> | undefined =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;

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
      const answer = await runInGateway(
        deps,
        {
          endpoint_id: endpoint.id,
          method: t.method,
          headers: t.headers,
          query: t.query,
          body_base64: t.body.toString('base64'),
          source_ip: callerIp(req),
        },
        'test request',
      );
      sendPipelineAnswer(res, answer, { code: 'test_request_rejected', what: 'test request' }, { test: true });
    },
  );
  return r;
}
