import type { Request, Response } from 'express';
import { BrokerUnavailableError } from '@relay/broker';
import { newId } from '@relay/contracts';
import type { ActivityRequestV1 } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { activityRow, deliveriesFor } from '../domain/accept';
import type { RequestFacts } from '../domain/accept';
import type { EndpointSource, EndpointView } from '../domain/endpoint-view';
import { IngestRejection, rejections } from '../domain/errors';
import { readPayload } from '../domain/payload-thin';
import type { ActivitySpool } from '../adapters/activity-spool';
import type { EventPublisher } from '../adapters/event-publisher';
import { BodyTooLargeError, readRawBody } from './read-body';
import { forwardableHeaders } from './forwardable-headers';

export interface IngestDeps {
  endpoints: EndpointSource;
  events: EventPublisher;
  spool: ActivitySpool;
  logger: Logger;
  maxBodyBytes: number;
  now(): Date;
}

/** The spec's fixed success body: one string field, nothing about plans or quotas. */
const ACCEPTED_BODY = { message: 'Payload received' };

/**
 * POST|GET|… /relay/:endpointId — the spec's steps in order: endpoint enabled, not paused,
 * method, (inbound auth), payload, (content rules, limits), accept. Each rejection that the
 * spec logs leaves its activity row; disabled, unknown and paused endpoints leave none.
 */
export function ingestHandler(deps: IngestDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const endpointId = String(req.params.endpointId);
    const facts: RequestFacts = { eventId: newId('evt'), receivedAt: deps.now(), method: req.method, sourceIp: sourceIpOf(req) };
    let view: EndpointView | null = null;
    try {
      view = await deps.endpoints.get(endpointId);
      if (!view || !view.endpoint.enabled) throw rejections.endpointNotFound();
      if (view.endpoint.paused) throw rejections.endpointUnavailable();
      if (!view.endpoint.methods.includes(req.method)) throw rejections.methodNotAllowed(view.endpoint.methods);
      const limit = Math.min(deps.maxBodyBytes, view.plan.payload_limit_bytes);
      const rawBody = await readRawBody(req, limit).catch((err: unknown) => {
        throw err instanceof BodyTooLargeError ? rejections.payloadTooLarge(limit) : err;
      });
      const payload = readPayload(view.endpoint.payload_format, req.headers['content-type'], rawBody);
      const request = { method: req.method, source_ip: facts.sourceIp, headers: forwardableHeaders(req.headers), query: queryOf(req.originalUrl) };
      const deliveries = deliveriesFor(view, facts, request, payload);
      const accepted = activityRow(view, facts, 'ACCEPTED', null, deliveries.length);
      try {
        if (deliveries.length > 0) {
          await deps.events.publishDeliveries(deliveries.map((message, i) => ({ message, channel: view!.targets[i]!.channel })));
          // Deliveries are durable now, so the answer is 202 whatever happens to the row.
          record(deps, accepted);
        } else {
          // Nothing to deliver: the ACCEPTED row is what must be durable before the 202.
          await deps.events.publishActivity(accepted);
        }
      } catch (err) {
        if (err instanceof BrokerUnavailableError) throw rejections.deliveryQueueUnavailable();
        throw err;
      }
      deps.logger.info('request accepted', { event_id: facts.eventId, endpoint_id: endpointId, outcome: 'ACCEPTED', targets: deliveries.length });
      res.status(202).json(ACCEPTED_BODY);
    } catch (err) {
      reject(deps, res, view, facts, endpointId, err);
    }
  };
}

function reject(deps: IngestDeps, res: Response, view: EndpointView | null, facts: RequestFacts, endpointId: string, err: unknown): void {
  if (!(err instanceof IngestRejection)) {
    deps.logger.error('ingest failed', { event_id: facts.eventId, endpoint_id: endpointId, error: err });
    if (!res.headersSent) res.status(500).json({ code: 'internal_error', message: 'Internal error.' });
    return;
  }
  if (view && err.outcome) record(deps, activityRow(view, facts, err.outcome, err.message));
  deps.logger.info('request rejected', { event_id: facts.eventId, endpoint_id: endpointId, outcome: err.outcome, status: err.status, code: err.code });
  if (err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
  if (err.status === 405 && view) res.setHeader('Allow', view.endpoint.methods.join(', '));
  res.status(err.status).json({ code: err.code, message: err.message });
}

/**
 * Rows go to the broker with a confirm; when the broker cannot take one (the
 * DELIVERY_QUEUE_UNAVAILABLE row above all) it is spooled in Redis and drained later.
 */
function record(deps: IngestDeps, row: ActivityRequestV1): void {
  deps.events.publishActivity(row).catch(() => deps.spool.push(row));
}

function sourceIpOf(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

function queryOf(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i + 1);
}
