import { captchaRejected } from '../access/captcha';
import { activityRow, deliveriesFor, routeEvent } from '../accept';
import { EndpointLookupUnavailableError } from '../endpoint-view';
import type { EndpointSource, EndpointView } from '../endpoint-view';
import { fromCheck, rejections } from '../errors';
import type { IngestRejection } from '../errors';
import type { Payload } from '../payload/read-payload';
import { describeRuleAt } from '../rules/pooled-rules';
import type { PooledJob } from '../rules/pooled-rules';
import { DeliveryQueueUnavailableError } from '@relay/broker';
import { inSyncSpan } from '@relay/telemetry';
import type { Attributes } from '@relay/telemetry';
import type {
  ActivityRecorder,
  CaptchaVerifier,
  DriftLearner,
  EventPublisher,
  IdempotencyStore,
  Limiter,
  LimitDecision,
  LimitRequest,
  PayloadRecorder,
  QuarantineBound,
  RulePool,
  SigningCertificates,
  SubscriptionConfirmer,
} from '../ports';
import { certificatePlanOf } from '../auth/certificate';
import { confirmSubscription, verifyWithCertificate } from './certificate-auth';
import { forwardableHeaders } from './forwarded-headers';
import { checkContract } from '../rules/contracts';
import { featuresFor } from '../payload/features';
import { providerDedupOf } from '../dedup/delivery-id';
import { MAC_HANDSHAKES_PER_MINUTE, UnusablePatternError } from '@relay/endpoints';
import { bodyHandshake, handshakeOf, queryHandshake, signedLikeHandshake } from '../handshakes';
import type { HandshakeOutcome } from '../handshakes';
import {
  captchaToken,
  checkAvailable,
  checkContent,
  checkInboundAuth,
  checkIpAccess,
  checkMethod,
  checkSourceAddress,
  idempotencyKeyOf,
  inboundRequestOf,
  limitRejection,
  readEndpointPayload,
} from './steps';
import type { IngestRequest, ReadyView } from './steps';
import { QUARANTINED_OUTCOMES } from '@relay/contracts';
import type { ForwardableRequest, QuarantineState } from '@relay/contracts';

export interface IngestPorts {
  endpoints: EndpointSource;
  events: EventPublisher;
  activity: ActivityRecorder;
  limiter: Limiter;
  captcha: CaptchaVerifier;
  payloads: PayloadRecorder;
  idempotency: IdempotencyStore;
  rules: RulePool;
  quarantine: QuarantineBound;
  drift: DriftLearner;
  certificates: SigningCertificates;
  subscriptions: SubscriptionConfirmer;
}

/**
 * Reads the request body: the bytes, or why not — larger than the gateway's read ceiling, or
 * not received within `timeoutMs` (BODY_TIMEOUT_MS).
 */
export interface BodyReader {
  read(): Promise<Buffer | 'too_large' | 'timed_out'>;
  timeoutMs: number;
}

/**
 * `eventId` names the accepted event: this request's, or — `replayed` — the one an earlier
 * request with the same Idempotency-Key was accepted as (no new event, no row, no delivery).
 */
export type IngestAnswer =
  | { accepted: true; targetCount: number; accountId: string; eventId: string; replayed?: true }
  | { accepted: false; rejection: IngestRejection; accountId: string | null };

/**
 * One request through the spec's steps ("What the service does" 1–7), in order: enabled, not
 * paused, method, IP lists, inbound auth, payload, required headers / body filters / field
 * validation, captcha, rate limit and monthly quota, accept. Every rejection after step 1
 * writes its activity row; unknown, disabled and paused endpoints write none.
 *
 * A test request (`req.test`, from the management API) runs the same steps for the account
 * owner, who is no sender: IP lists, inbound auth and captcha are skipped, and it counts
 * against neither the rate limit nor the quota. Its rows are marked `test`.
 *
 * A sender's request refused by the payload or content steps (4 and 5) after it passed
 * authentication is quarantined: its request kept for a re-run, within the account's hourly
 * bound (docs/ingest.md "Quarantine"). A re-run (`req.rerunOf`) skips IP lists, inbound auth
 * and captcha, which the kept request passed or cannot repeat; everything else is a sender's.
 */
export async function ingest(ports: IngestPorts, req: IngestRequest, body: BodyReader): Promise<IngestAnswer> {
  let view: EndpointView | null;
  try {
    view = await ports.endpoints.get(req.endpointId);
  } catch (err) {
    // the store cannot say whether the endpoint exists: "otherwise cannot accept events" (spec "Errors")
    if (err instanceof EndpointLookupUnavailableError)
      return { accepted: false, rejection: rejections.endpointUnavailable(err.message), accountId: null };
    throw err;
  }
  const unavailable = checkAvailable(view, req.receivedAt);
  if (unavailable) return { accepted: false, rejection: unavailable, accountId: view?.endpoint.account_id ?? null };
  // checkAvailable passed: the endpoint exists and its settings are prepared
  const ready = view as ReadyView;
  const accountId = ready.endpoint.account_id;
  const reject = (rejection: IngestRejection): IngestAnswer => {
    if (rejection.outcome) ports.activity.record(activityRow(ready, req, rejection.outcome, rejection.reason));
    return { accepted: false, rejection, accountId };
  };
  const sender = req.test !== true && req.rerunOf === undefined;

  // A provider's query handshake (Meta, Dropbox, X, Graph) may use a method the endpoint does
  // not take for events: it is recognised first, and answered after the address checks.
  const handshake = sender ? handshakeOf(ready.settings.inboundAuth) : null;
  const queryAnswer = handshake ? queryHandshake(handshake.kind, handshake.setting, req) : null;
  const early =
    (queryAnswer ? null : checkMethod(ready.endpoint, req.method)) ??
    checkSourceAddress(req) ??
    (sender ? checkIpAccess(ready.settings, req.sourceIp) : null);
  if (early) return reject(early);
  if (queryAnswer) return reject(await handshakeRejection(ports, ready, req, queryAnswer));
  // The whole body is needed before authentication: HMAC signatures cover its exact bytes.
  const rawBody = await body.read();
  if (rawBody === 'too_large') return reject(rejections.payloadTooLarge(ready.plan.payload_limit_bytes));
  if (rawBody === 'timed_out') return reject(rejections.requestTimeout(body.timeoutMs));
  // each in a span of its own when tracing is on (docs/observability.md "Traces"); off, a call
  // a certificate-signed preset (SNS, PayPal) needs the certificate its request names, fetched
  const certificate = sender
    ? certificatePlanOf(ready.settings.inboundAuth, inboundRequestOf(req, rawBody), req.receivedAt)
    : null;
  const denied = !sender
    ? null
    : certificate
      ? await verifyWithCertificate(ports.certificates, certificate, req.receivedAt)
      : inSyncSpan('sender auth', authenticate, ready, req, rawBody, describeAuth);
  if (denied) return reject(denied);
  if (certificate?.ok && certificate.signed.subscribeUrl !== undefined)
    return reject(await confirmSubscription(ports.subscriptions, certificate.signed.subscribeUrl));
  const handshakeShaped = handshake ? signedLikeHandshake(handshake, rawBody) : null;
  if (handshakeShaped) return reject(rejections.authFailed(handshakeShaped));
  // Signed handshakes (Slack, Zoom, Twitch, Discord) are answered only once the signature passed.
  const bodyAnswer = handshake
    ? bodyHandshake(handshake.kind, handshake.setting, inboundRequestOf(req, rawBody), req.receivedAt)
    : null;
  if (bodyAnswer) return reject(await handshakeRejection(ports, ready, req, bodyAnswer));
  const read = inSyncSpan(
    'parse and validate',
    parseAndValidate,
    { ready, inlineCost: ports.rules.inlineCost },
    req,
    rawBody,
    describeParse,
  );
  // refused by the payload or the endpoint's rules, after authentication: kept for a re-run
  const refuseAndKeep = async (rejection: IngestRejection): Promise<IngestAnswer> => {
    if (req.test === true || !rejection.outcome || !QUARANTINED_OUTCOMES.includes(rejection.outcome))
      return reject(rejection);
    const quarantine = await keepRefused(ports, ready, req, rawBody);
    ports.activity.record({ ...activityRow(ready, req, rejection.outcome, rejection.reason), quarantine });
    return { accepted: false, rejection, accountId };
  };
  if (!read.ok) return refuseAndKeep(read.rejection);
  const { payload } = read;
  // routing decided with the rules in the pool; inline, at accept
  let routes: readonly boolean[] | null = null;
  if (read.pooled) {
    const pooled = await evaluateInPool(ports.rules, ready, read.pooled);
    if (!pooled.ok) return pooled.keep ? refuseAndKeep(pooled.rejection) : reject(pooled.rejection);
    routes = pooled.routes;
  }
  const contract = checkContract(
    ready.settings.contracts,
    ready.endpoint.payload_format,
    req.headers,
    payload.data,
    ports.rules.inlineCost,
  );
  if ('rejection' in contract) return refuseAndKeep(contract.rejection);
  const invalid = sender ? await verifyCaptcha(ports, ready, req, payload) : null;
  if (invalid) return reject(invalid);

  const idem = idempotencyKeyOf(req);
  if ('rejection' in idem) return reject(idem.rejection);
  // The provider's own delivery id, once the signature passed; it takes the place of an
  // Idempotency-Key (a provider's retry carries the same id, not necessarily the same key).
  const provider = req.test !== true ? providerDedupOf(ready.settings.inboundAuth, req.headers, payload.data) : null;
  // a re-run without a key of its own takes one per quarantined request: run twice, one event
  const key = provider ? provider.key : (idem.key ?? (req.rerunOf ? `rerun:${req.rerunOf}` : null));
  if (key !== null) {
    const claim = await ports.idempotency.claim(ready.endpoint.id, key, req.eventId);
    if (claim.state === 'replay') {
      // a provider's retry is answered like a replay, and its row says so (folded like floods)
      if (provider)
        ports.activity.record(
          activityRow(ready, req, 'DUPLICATE', `duplicate of ${claim.eventId} (same ${provider.source})`),
        );
      return { accepted: true, targetCount: 0, accountId, eventId: claim.eventId, replayed: true };
    }
    // the first request is still being decided: its row stands for the event, this one writes none
    if (claim.state === 'in_flight')
      return {
        accepted: false,
        rejection: provider ? rejections.deliveryIdInUse() : rejections.idempotencyKeyInUse(),
        accountId,
      };
  }
  const answer = await admitAndAccept(ports, ready, req, payload, routes, contract.violation);
  if (answer.accepted && sender && learnsShapes(ready, payload)) {
    const eventType = ready.settings.contracts?.eventType(req.headers, payload.data) ?? null;
    ports.drift.learn({
      accountId,
      endpointId: ready.endpoint.id,
      eventId: req.eventId,
      eventType,
      data: payload.data,
      at: req.receivedAt,
    });
  }
  if (key !== null) {
    if (answer.accepted) await ports.idempotency.complete(ready.endpoint.id, key, req.eventId, provider?.windowMs);
    else await ports.idempotency.release(ready.endpoint.id, key, req.eventId);
  }
  return answer.accepted ? answer : reject(answer.rejection);
}

/**
 * Drift is learned for endpoints a provider preset authenticates (their sender is a known
 * provider whose payloads change without notice), where the payload has fields.
 */
function learnsShapes(ready: ReadyView, payload: Payload): boolean {
  const auth = ready.endpoint.inbound_auth;
  return (
    auth.type === 'HMAC' && 'preset' in auth && featuresFor(ready.endpoint.payload_format, payload.data).fieldValidation
  );
}

/** Step 3: the sender's credentials or signature, per the endpoint's inbound auth. */
function authenticate(ready: ReadyView, req: IngestRequest, rawBody: Buffer): IngestRejection | null {
  return checkInboundAuth(ready.settings, req, rawBody);
}

/** The `sender auth` span's attributes: the scheme (never its secrets) and whether it passed. */
function describeAuth(denied: IngestRejection | null, ready: ReadyView): Attributes {
  const auth = ready.settings.inboundAuth;
  return {
    'relay.auth.type': auth.type,
    'relay.auth.preset': auth.type === 'HMAC' ? auth.preset : '',
    'relay.outcome': denied ? denied.code : 'passed',
  };
}

/**
 * Steps 4 and 5: the payload per the endpoint's format, then required headers, body filters, field
 * validation; `pooled` when the pattern rules are the rule pool's to run.
 */
function parseAndValidate(
  { ready, inlineCost }: { ready: ReadyView; inlineCost: number },
  req: IngestRequest,
  rawBody: Buffer,
): { ok: true; payload: Payload; pooled: PooledJob | null } | { ok: false; rejection: IngestRejection } {
  const read = readEndpointPayload(ready, req, rawBody);
  if (!read.ok) return read;
  let content: ReturnType<typeof checkContent>;
  try {
    content = checkContent(ready, req, rawBody, read.payload, inlineCost);
  } catch (err) {
    if (err instanceof UnusablePatternError) return { ok: false, rejection: unusableRules(err) };
    throw err;
  }
  if (content === null) return { ...read, pooled: null };
  return 'pooled' in content ? { ...read, pooled: content.pooled } : { ok: false, rejection: content };
}

/** The `parse and validate` span's attributes: the format and the outcome (a documented error code), never the body. */
function describeParse(
  read: { ok: true; pooled: PooledJob | null } | { ok: false; rejection: IngestRejection },
  { ready }: { ready: ReadyView },
): Attributes {
  return {
    'relay.payload_format': ready.endpoint.payload_format,
    'relay.outcome': read.ok ? (read.pooled ? 'pooled' : 'valid') : read.rejection.code,
  };
}

/**
 * Step 5 in the rule pool (docs/security.md "Rule cost"): body filters and field rules as
 * inline, and the routing decided with them; a deadline, or no room in the pool, is a refusal.
 */
async function evaluateInPool(
  pool: RulePool,
  ready: ReadyView,
  job: PooledJob,
): Promise<{ ok: true; routes: readonly boolean[] } | { ok: false; rejection: IngestRejection; keep?: true }> {
  const answer = await pool.evaluate(ready.endpoint.account_id, job);
  if ('done' in answer) {
    const { check, routes } = answer.done;
    return check.ok ? { ok: true, routes } : { ok: false, rejection: fromCheck(check), keep: true };
  }
  if ('unusable' in answer) return { ok: false, rejection: unusableRules(answer.unusable) };
  if ('deadline' in answer) {
    const rule = describeRuleAt(
      job.rules,
      ready.targets.map((t) => t.id),
      answer.deadline,
    );
    // the payload was refused by what the rules cost on it: a simpler rule may take it on a re-run
    return { ok: false, rejection: rejections.rulesDeadlineExceeded(rule, pool.deadlineMs), keep: true };
  }
  return {
    ok: false,
    rejection:
      answer.busy === 'account'
        ? rejections.rulesBusy()
        : rejections.endpointUnavailable('the rule pool queue is full', 'RATE_LIMITED'),
  };
}

/**
 * A handshake ends the request like a refusal: its own row, no delivery. An answer holding a MAC
 * made with the event key counts against the endpoint's MAC_HANDSHAKES_PER_MINUTE first.
 */
async function handshakeRejection(
  ports: IngestPorts,
  ready: ReadyView,
  req: IngestRequest,
  outcome: HandshakeOutcome,
): Promise<IngestRejection> {
  if (!outcome.ok) return outcome.rejection;
  if (outcome.mac) {
    const limit = await ports.limiter.admitHandshake(ready.endpoint.id, MAC_HANDSHAKES_PER_MINUTE, req.receivedAt);
    if (!limit.admitted)
      return rejections.handshakeRateLimited(outcome.what, MAC_HANDSHAKES_PER_MINUTE, limit.retryAfterSeconds);
  }
  return rejections.handshakeAnswered(`${outcome.what} answered`, outcome.reply);
}

/**
 * Steps 6 and 7: limits (not for a test request), then accept. A refusal is returned unrecorded.
 * `routes`: the targets' routing as the rule pool decided it; null, decided at accept.
 */
async function admitAndAccept(
  ports: IngestPorts,
  ready: ReadyView,
  req: IngestRequest,
  payload: Payload,
  routes: readonly boolean[] | null,
  violation: string | null,
): Promise<IngestAnswer> {
  const accountId = ready.endpoint.account_id;
  const limits: LimitRequest = {
    endpointId: ready.endpoint.id,
    accountId,
    ratePerMinute: ready.settings.ratePerMinute,
    monthlyQuota: ready.plan.monthly_accepted_events,
    now: req.receivedAt,
  };
  let decision: Extract<LimitDecision, { admitted: true }> | null = null;
  if (req.test !== true) {
    const admitted = await ports.limiter.admit(limits);
    if (!admitted.admitted) return { accepted: false, rejection: limitRejection(admitted), accountId };
    decision = admitted;
  }

  try {
    const targetCount = await accept(ports, ready, req, payload, routes, violation);
    return { accepted: true, targetCount, accountId, eventId: req.eventId };
  } catch (err) {
    // The quota counts accepted events: this one was counted by admit() but not accepted.
    if (decision) await ports.limiter.refund(limits, decision);
    if (err instanceof DeliveryQueueUnavailableError)
      return { accepted: false, rejection: rejections.deliveryQueueUnavailable(), accountId };
    // a routing rule's pattern, compiled when first needed
    if (err instanceof UnusablePatternError) return { accepted: false, rejection: unusableRules(err), accountId };
    throw err;
  }
}

/**
 * A stored pattern that cannot be compiled makes the endpoint unable to accept events, as
 * settings that cannot be prepared do: 503, no row; the reason goes to the log.
 */
function unusableRules(err: UnusablePatternError | string): IngestRejection {
  return rejections.endpointUnavailable(typeof err === 'string' ? err : err.message);
}

/** Captcha: a missing token is 400, a refused one 403; a verifier outage fails closed (503). */
async function verifyCaptcha(
  ports: IngestPorts,
  view: ReadyView,
  req: IngestRequest,
  payload: Payload,
): Promise<IngestRejection | null> {
  const token = captchaToken(view.settings, view.endpoint.payload_format, payload.data);
  if (typeof token !== 'string') return token;
  const verdict = await ports.captcha.verify(view.settings.captcha!, token, req.sourceIp);
  if (verdict === 'verified') return null;
  if (verdict === 'rejected') return fromCheck(captchaRejected());
  return rejections.endpointUnavailable(
    'captcha verifier unavailable: the token could not be checked',
    'CAPTCHA_FAILED',
  );
}

/**
 * Step 7: 202 only after the broker confirmed. With targets, the deliveries are what must be
 * durable and the ACCEPTED row follows best-effort; with none, the row itself must be durable.
 */
async function accept(
  ports: IngestPorts,
  view: ReadyView,
  req: IngestRequest,
  payload: Payload,
  routes: readonly boolean[] | null,
  violation: string | null,
): Promise<number> {
  const request = forwardableRequestOf(view, req);
  const body = { content_type: payload.forward.content_type, body_base64: payload.forward.body.toString('base64') };
  const { routed, notRouted } = routeEvent(view, req.eventId, payload.data, routes);
  const deliveries = deliveriesFor(view, routed, req, request, body, { headers: req.headers, data: payload.data });
  const accepted = activityRow(view, req, 'ACCEPTED', null, deliveries.length, notRouted);
  // contract `mark` mode: accepted, and the row says what failed
  const row = violation === null ? accepted : { ...accepted, contract_violation: violation };
  if (deliveries.length === 0) await ports.events.publishActivity(row);
  else {
    await ports.events.publishDeliveries(deliveries.map((message, i) => ({ message, channel: routed[i]!.channel })));
    ports.activity.record(row);
  }
  // kept with the row for resends: within the plan payload limit by step 4
  ports.payloads.record({
    event_id: req.eventId,
    account_id: view.endpoint.account_id,
    endpoint_id: view.endpoint.id,
    received_at: row.received_at,
    request,
    payload: body,
  });
  return deliveries.length;
}

/** The request as targets may receive it and resends and re-runs read it: credentials removed. */
function forwardableRequestOf(view: ReadyView, req: IngestRequest): ForwardableRequest {
  return {
    method: req.method,
    source_ip: req.sourceIp,
    headers: forwardableHeaders(req.headers, view.settings.strippedHeaders),
    query: req.rawQuery,
  };
}

/**
 * Quarantine: the refused request, as it came (its raw body and Content-Type, its headers with
 * credentials removed), goes the way of accepted payloads (docs/delivery.md "Resend and bulk
 * retry": the payload queue, the row's hour, its retention) — unless the account's hourly
 * bound is used up. A bound that cannot be counted (Redis) keeps it: MAX_BODY_BYTES still
 * bounds its size, and the sender has no retry left to lose it to.
 */
async function keepRefused(
  ports: IngestPorts,
  view: ReadyView,
  req: IngestRequest,
  rawBody: Buffer,
): Promise<QuarantineState> {
  if (!(await ports.quarantine.take(view.endpoint.account_id, req.receivedAt))) return 'bound_reached';
  const contentType = req.headers['content-type'];
  ports.payloads.record({
    event_id: req.eventId,
    account_id: view.endpoint.account_id,
    endpoint_id: view.endpoint.id,
    received_at: req.receivedAt.toISOString(),
    request: forwardableRequestOf(view, req),
    payload: {
      content_type: typeof contentType === 'string' ? contentType : null,
      body_base64: rawBody.toString('base64'),
    },
  });
  return 'kept';
}
