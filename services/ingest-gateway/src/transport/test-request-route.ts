import type { Request, Response } from 'express';
import { isIdOf, newEventId, timeOfId } from '@relay/contracts';
import type { TestRequestAnswer, TestRequestEnvelope } from '@relay/contracts';
import type { InternalSigner } from '@relay/secrets';
import { ingest } from '../domain/pipeline/ingest';
import type { IngestRequest } from '../domain/pipeline/steps';
import type { IngestDeps } from './ingest-route';

/** What newEventId makes: `evt_`, then 26 characters, the first 10 its arrival time. */
const isEventId = (text: string): boolean => text.length === 30 && text.startsWith('evt_') && timeOfId(text) !== null;

function envelopeOf(raw: Buffer, endpointId: string): TestRequestEnvelope | null {
  let e: Partial<TestRequestEnvelope>;
  try {
    e = JSON.parse(raw.toString('utf8')) as Partial<TestRequestEnvelope>;
  } catch {
    return null;
  }
  const strings = [e.endpoint_id, e.method, e.query, e.body_base64, e.source_ip].every((v) => typeof v === 'string');
  const headers =
    typeof e.headers === 'object' && e.headers !== null && Object.values(e.headers).every((v) => typeof v === 'string');
  const rerunOf = e.rerun_of === undefined || (typeof e.rerun_of === 'string' && isEventId(e.rerun_of));
  return strings && headers && rerunOf && e.endpoint_id === endpointId ? (e as TestRequestEnvelope) : null;
}

/**
 * POST /internal/v1/test-requests/:endpointId — a test request from the management API
 * (POST /v1/endpoints/:id/test), run through this gateway's own pipeline (`ingest`, the spec's
 * steps) with `test: true`: the same endpoint cache, payload rules, broker publishes and rows
 * as a sender's request; no IP lists, inbound auth, captcha or limits (the owner is no sender).
 * Signed with a key derived from SECRETS_KEYS (@relay/secrets createInternalSigner); a request
 * without a valid signature gets 401 and runs nothing. Answers 200 with what a sender would
 * have been answered, as data.
 *
 * With `rerun_of`, the envelope is a quarantined request re-run (POST /v1/activity/:eventId/rerun,
 * docs/ingest.md "Quarantine"): the sender's request as kept, run with `rerunOf` instead of
 * `test` — authentication skipped, limits counted, its row a sender's linked to the original.
 */
export function testRequestHandler(deps: IngestDeps & { signer: InternalSigner }) {
  return async (req: Request, res: Response): Promise<void> => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (!deps.signer.verify(req.header('x-relay-signature'), raw)) {
      res.status(401).json({ code: 'unauthorized', message: 'A valid X-Relay-Signature is required.' });
      return;
    }
    const endpointId = String(req.params.endpointId);
    const envelope = isIdOf('ep', endpointId) ? envelopeOf(raw, endpointId) : null;
    if (!envelope) {
      res.status(400).json({ code: 'malformed_test_request', message: 'The test request envelope is not valid.' });
      return;
    }
    const receivedAt = deps.now();
    const request: IngestRequest = {
      endpointId,
      eventId: newEventId(receivedAt.getTime()),
      receivedAt,
      method: envelope.method,
      headers: envelope.headers,
      rawQuery: envelope.query,
      publicUrl: `${deps.publicBaseUrl ?? ''}/relay/${endpointId}${envelope.query ? `?${envelope.query}` : ''}`,
      sourceIp: envelope.source_ip,
      ...(envelope.rerun_of === undefined ? { test: true } : { rerunOf: envelope.rerun_of }),
    };
    const body = Buffer.from(envelope.body_base64, 'base64');
    const answer = await ingest(deps, request, {
      read: async () => (body.length > deps.maxBodyBytes ? 'too_large' : body),
      timeoutMs: deps.bodyTimeoutMs,
    });
    const log = {
      event_id: request.eventId,
      endpoint_id: endpointId,
      account_id: answer.accountId,
      method: request.method,
      ...(request.rerunOf === undefined ? { test: true } : { rerun_of: request.rerunOf }),
    };
    if (answer.accepted) {
      deps.logger.info(request.rerunOf === undefined ? 'test request accepted' : 're-run accepted', {
        ...log,
        outcome: 'ACCEPTED',
        status: 202,
        targets: answer.targetCount,
        replayed: answer.replayed === true,
      });
      const accepted: TestRequestAnswer = {
        accepted: true,
        event_id: answer.eventId,
        target_count: answer.targetCount,
        replayed: answer.replayed === true,
      };
      res.json(accepted);
      return;
    }
    const r = answer.rejection;
    deps.logger.info(request.rerunOf === undefined ? 'test request rejected' : 're-run rejected', {
      ...log,
      outcome: r.outcome,
      status: r.status,
      code: r.code,
      reason: r.reason,
    });
    const rejected: TestRequestAnswer = {
      accepted: false,
      event_id: r.outcome ? request.eventId : null,
      status: r.status,
      code: r.code,
      message: r.message,
      outcome: r.outcome,
      reason: r.outcome ? r.reason : null,
    };
    res.json(rejected);
  };
}
