import type { Request, Response } from 'express';
import { newEventId } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { ingest } from '../domain/pipeline/ingest';
import type { IngestAnswer, IngestPorts } from '../domain/pipeline/ingest';
import type { IngestRequest } from '../domain/pipeline/steps';
import type { GatewayMetrics } from '../adapters/metrics';
import { publicUrlOf } from './public-url';
import { BodyTooLargeError, readRawBody } from './read-body';

export interface IngestDeps extends IngestPorts {
  logger: Logger;
  metrics: GatewayMetrics;
  /** hard ceiling on the bytes read of one body, above every plan payload limit */
  maxBodyBytes: number;
  /** PUBLIC_BASE_URL, or null to take scheme and host from the request */
  publicBaseUrl: string | null;
  now(): Date;
}

/** The spec's fixed success body: one string field, nothing about plans or quotas. */
const ACCEPTED_BODY = { message: 'Payload received' };

/**
 * ALL /relay/:endpointId — turns the HTTP request into data for the ingest pipeline
 * (domain/pipeline/ingest.ts, where the spec's steps run) and its answer back into HTTP:
 * 202 with the fixed body, or `{ code, message }` with Retry-After / Allow. HEAD gets no body.
 */
export function ingestHandler(deps: IngestDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const started = performance.now();
    const receivedAt = deps.now();
    const request: IngestRequest = {
      endpointId: String(req.params.endpointId),
      // the id carries the arrival time: the activity log finds the row's partition from it
      eventId: newEventId(receivedAt.getTime()),
      receivedAt,
      method: req.method,
      headers: req.headers,
      rawQuery: queryOf(req.originalUrl),
      publicUrl: publicUrlOf(req, deps.publicBaseUrl),
      sourceIp: sourceIpOf(req),
    };
    const readBody = (): Promise<Buffer | null> =>
      readRawBody(req, deps.maxBodyBytes).catch((err: unknown) => {
        if (err instanceof BodyTooLargeError) return null;
        throw err;
      });
    let answer: IngestAnswer;
    try {
      answer = await ingest(deps, request, readBody);
    } catch (err) {
      failed(deps, req, res, request, err);
      return;
    }
    const log = { event_id: request.eventId, endpoint_id: request.endpointId, account_id: answer.accountId, method: req.method, duration_ms: Math.round(performance.now() - started) };
    if (answer.accepted) {
      deps.metrics.requests.inc({ outcome: 'ACCEPTED' });
      deps.logger.info('request accepted', { ...log, outcome: 'ACCEPTED', status: 202, targets: answer.targetCount });
      send(req, res, 202, ACCEPTED_BODY);
      return;
    }
    const r = answer.rejection;
    deps.metrics.requests.inc({ outcome: r.outcome ?? r.code });
    deps.logger.info('request rejected', { ...log, outcome: r.outcome, status: r.status, code: r.code, reason: r.reason });
    if (r.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(r.retryAfterSeconds));
    if (r.allow) res.setHeader('Allow', r.allow.join(', '));
    send(req, res, r.status, { code: r.code, message: r.message });
  };
}

/** HEAD answers carry the status and headers only (RFC 9110 §9.3.2). */
function send(req: Request, res: Response, status: number, body: object): void {
  if (req.method === 'HEAD') res.status(status).end();
  else res.status(status).json(body);
}

/** 500s are opaque to callers and logged in full; a sender that hung up gets nothing. */
function failed(deps: IngestDeps, req: Request, res: Response, request: IngestRequest, err: unknown): void {
  if (req.destroyed && !res.headersSent) {
    deps.logger.info('request aborted by the sender', { event_id: request.eventId, endpoint_id: request.endpointId });
    return;
  }
  deps.metrics.requests.inc({ outcome: 'internal_error' });
  deps.logger.error('ingest failed', { event_id: request.eventId, endpoint_id: request.endpointId, error: err });
  if (!res.headersSent) res.status(500).json({ code: 'internal_error', message: 'Internal error.' });
}

function sourceIpOf(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

function queryOf(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i + 1);
}
