import type { NextFunction, Request, Response } from 'express';
import { newEventId } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { inSpan, linkFrom, SpanKind } from '@relay/telemetry';
import { ingest } from '../domain/pipeline/ingest';
import type { BodyReader, IngestAnswer, IngestPorts } from '../domain/pipeline/ingest';
import type { IngestRequest } from '../domain/pipeline/steps';
import type { GatewayMetrics } from '../adapters/metrics';
import type { HandshakeReply } from '../domain/errors';
import { publicUrlOf } from './public-url';
import { readRawBody } from './read-body';

export interface IngestDeps extends IngestPorts {
  logger: Logger;
  metrics: GatewayMetrics;
  /** hard ceiling on the bytes read of one body, above every plan payload limit */
  maxBodyBytes: number;
  /** time a sender has to send the whole body once the gateway reads it (408 after) */
  bodyTimeoutMs: number;
  /** PUBLIC_BASE_URL, or null to take scheme and host from the request */
  publicBaseUrl: string | null;
  now(): Date;
}

/** The spec's fixed success body: one string field, nothing about plans or quotas. */
const ACCEPTED_BODY = { message: 'Payload received' };
/** ...serialised once: every accepted request answers with these bytes. */
const ACCEPTED_TEXT = JSON.stringify(ACCEPTED_BODY);

/** What the error path (transport/errors.ts) logs of a request that failed. */
export interface IngestLocals {
  event_id: string;
  endpoint_id: string;
}

/**
 * ALL /relay/:endpointId — turns the HTTP request into data for the ingest pipeline
 * (domain/pipeline/ingest.ts, where the spec's steps run) and its answer back into HTTP:
 * 202 with the fixed body, or `{ code, message }` with Retry-After / Allow. HEAD gets no body.
 * A thrown error goes to the app's one error path (transport/errors.ts), which always answers.
 */
export function ingestHandler(deps: IngestDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
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
    res.locals.ingest = { event_id: request.eventId, endpoint_id: request.endpointId } satisfies IngestLocals;
    const body: BodyReader = {
      read: () => readRawBody(req, res, { maxBytes: deps.maxBodyBytes, timeoutMs: deps.bodyTimeoutMs }),
      timeoutMs: deps.bodyTimeoutMs,
    };
    let answer: IngestAnswer;
    try {
      // one trace per event, linked to the sender's traceparent if it sent one (docs/observability.md "Traces")
      answer = await inSpan(
        'ingest',
        async (span) => {
          const a = await ingest(deps, request, body);
          span?.setAttributes({
            'relay.event_id': request.eventId,
            'relay.endpoint_id': request.endpointId,
            'relay.accepted': a.accepted,
          });
          return a;
        },
        { kind: SpanKind.SERVER, links: linkFrom(req.headers) },
      );
    } catch (err) {
      next(err);
      return;
    }
    const log = {
      event_id: request.eventId,
      endpoint_id: request.endpointId,
      account_id: answer.accountId,
      method: req.method,
      duration_ms: Math.round(performance.now() - started),
    };
    if (answer.accepted) {
      // the event's id, for the sender's own records and for a resend (docs/ingest.md); the
      // body stays the spec's fixed one
      res.setHeader('X-Relay-Event-Id', answer.eventId);
      if (answer.replayed) {
        // an earlier request with this Idempotency-Key was accepted: the same answer, nothing new
        res.setHeader('Idempotent-Replayed', 'true');
        deps.metrics.requests.inc({ outcome: 'DUPLICATE' });
        deps.logger.info('request answered from its Idempotency-Key', {
          ...log,
          outcome: 'DUPLICATE',
          status: 202,
          first_event_id: answer.eventId,
        });
        send(req, res, 202, ACCEPTED_BODY);
        return;
      }
      deps.metrics.requests.inc({ outcome: 'ACCEPTED' });
      deps.metrics.acceptedDuration.observe((performance.now() - started) / 1000);
      deps.logger.info('request accepted', { ...log, outcome: 'ACCEPTED', status: 202, targets: answer.targetCount });
      send(req, res, 202, ACCEPTED_BODY);
      return;
    }
    const r = answer.rejection;
    deps.metrics.requests.inc({ outcome: r.outcome ?? r.code });
    if (r.reply) {
      // a provider handshake: its documented answer, recorded, nothing delivered
      deps.logger.info('handshake answered', { ...log, outcome: r.outcome, status: r.status, reason: r.reason });
      sendReply(req, res, r.status, r.reply);
      return;
    }
    deps.logger.info('request rejected', {
      ...log,
      outcome: r.outcome,
      status: r.status,
      code: r.code,
      reason: r.reason,
    });
    if (r.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(r.retryAfterSeconds));
    if (r.allow) res.setHeader('Allow', r.allow.join(', '));
    send(req, res, r.status, { code: r.code, message: r.message, ...(r.errors ? { errors: r.errors } : {}) });
  };
}

/** HEAD answers carry the status and headers only (RFC 9110 §9.3.2). */
export function send(req: Request, res: Response, status: number, body: object): void {
  // A body left unread (refused before or while reading it) is not waited for: the connection
  // closes after the answer instead of after the rest trickles in. What the sender still sends
  // is read and dropped meanwhile (server.ts lingerOnClose), so its kernel never resets the
  // connection under the answer.
  if (!req.complete) {
    res.setHeader('Connection', 'close');
    req.resume();
  }
  if (req.method === 'HEAD') {
    res.status(status).end();
    return;
  }
  // what express's res.json would send (no ETag: app.ts disables it), written directly: its
  // content negotiation and header helpers cost a few percent of the gateway's CPU per request
  const text = body === ACCEPTED_BODY ? ACCEPTED_TEXT : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A handshake's answer, byte for byte as the provider expects it (HEAD: headers only). */
function sendReply(req: Request, res: Response, status: number, reply: HandshakeReply): void {
  if (!req.complete) {
    res.setHeader('Connection', 'close');
    req.resume();
  }
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.writeHead(status, { 'Content-Type': reply.contentType, 'Content-Length': Buffer.byteLength(reply.body) });
  res.end(req.method === 'HEAD' ? undefined : reply.body);
}

function sourceIpOf(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

function queryOf(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i + 1);
}
