import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@relay/logging';
import type { GatewayMetrics } from '../adapters/metrics';
import { send } from './ingest-route';
import type { IngestLocals } from './ingest-route';

/**
 * The router could not percent-decode a path parameter (`/relay/%ZZ`): a sender's mistake, not
 * a bug. Express's router marks it as a URIError with status 400.
 */
export function isUndecodablePath(err: unknown): boolean {
  return err instanceof URIError && (err as URIError & { status?: number }).status === 400;
}

/**
 * The app's one error path: every request that throws ends here, and is answered unless there
 * is no one left to answer. An undecodable path is 400 `malformed_path` (no endpoint is known,
 * so no row); anything else is a bug: 500 `internal_error`, opaque to the sender, logged in full.
 *
 * "No one left" is decided on the response, never on `req.destroyed` (true on Node 20 as soon
 * as a body was read to its end): the answer was already sent (`writableEnded`), or the
 * connection is closed (`res.destroyed`, `socket.destroyed`).
 */
export function errorHandler(deps: { logger: Logger; metrics: GatewayMetrics }) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const ids = (res.locals.ingest as IngestLocals | undefined) ?? {};
    if (res.writableEnded) {
      deps.logger.error('error after the answer was sent', { ...ids, error: err });
      return;
    }
    if (res.destroyed || req.socket.destroyed) {
      deps.logger.info('request aborted by the sender', { ...ids, error: (err as Error).message });
      return;
    }
    if (res.headersSent) {
      // half an answer cannot be finished honestly: cut it, so the sender sees a failure
      deps.logger.error('ingest failed after the answer started', { ...ids, error: err });
      res.destroy();
      return;
    }
    if (isUndecodablePath(err)) {
      deps.metrics.requests.inc({ outcome: 'malformed_path' });
      deps.logger.info('request rejected', {
        status: 400,
        code: 'malformed_path',
        reason: 'the path is not valid percent-encoding',
      });
      send(req, res, 400, { code: 'malformed_path', message: 'The URL path is not valid percent-encoding.' });
      return;
    }
    deps.metrics.requests.inc({ outcome: 'internal_error' });
    deps.logger.error('ingest failed', { ...ids, error: err });
    send(req, res, 500, { code: 'internal_error', message: 'Internal error.' });
  };
}
