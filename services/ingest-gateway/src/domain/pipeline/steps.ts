import { isIP } from 'node:net';
import { MAX_SOURCE_IP_LENGTH } from '@relay/contracts';
import { methodAllowedForFormat, pauseState } from '@relay/endpoints';
import type { PayloadFormat } from '@relay/endpoints';
import type { EndpointRecord } from '@relay/store';
import { extractCaptchaToken } from '../access/captcha';
import type { InboundRequest } from '../auth/request';
import { verifyInbound } from '../auth/verify';
import type { EndpointSettings } from '../endpoint-settings';
import type { EndpointView } from '../endpoint-view';
import { fromCheck, rejections } from '../errors';
import type { IngestRejection } from '../errors';
import { featuresFor } from '../payload/features';
import { readPayload } from '../payload/read-payload';
import type { Payload } from '../payload/read-payload';
import { checkContentRules, checkHeaders, contentRulesCost, patternSubjects } from '../rules/content-rules';
import type { ContentRequest } from '../rules/content-rules';
import type { PooledJob, PooledRules } from '../rules/pooled-rules';
import type { LimitDecision } from '../ports';

/**
 * The spec's steps ("What the service does" 1–6) as plain functions of data. Each returns
 * `null` to continue, or the IngestRejection that ends the request; ingest.ts runs them in order.
 */

/** What the steps read of one request; built by the transport layer. */
export interface IngestRequest {
  endpointId: string;
  eventId: string;
  receivedAt: Date;
  method: string;
  /** Node's header map: lower-case names */
  headers: Record<string, string | string[] | undefined>;
  /** the query string without `?`, exactly as received */
  rawQuery: string;
  /** the URL as the sender used it: Twilio, Square and custom `{{url}}` signatures cover it */
  publicUrl: string;
  sourceIp: string;
  /**
   * A test request the account owner ran from the management API (POST /v1/endpoints/:id/test):
   * the same steps, but the owner is no sender — no IP lists, inbound auth or captcha — and it
   * counts against no rate limit or quota; its row is in the Test group. Absent: a sender's request.
   */
  test?: boolean;
  /**
   * A re-run of this quarantined request (POST /v1/activity/:eventId/rerun): the sender's
   * request as kept, run as if just received. It passed IP lists and inbound auth then, so they
   * (and captcha, whose token is spent) are skipped; limits, dedup and its row are a sender's.
   */
  rerunOf?: string;
}

export type ReadyView = EndpointView & { settings: EndpointSettings };

/** Step 1: enabled and not paused. Unknown, disabled and paused endpoints leave no row. */
export function checkAvailable(view: EndpointView | null, now: Date): IngestRejection | null {
  if (!view || !view.endpoint.enabled) return rejections.endpointNotFound();
  const pause = pauseState(view.endpoint, now);
  if (pause.paused) return rejections.endpointUnavailable(`paused (${pause.reason})`);
  if (!view.settings)
    return rejections.endpointUnavailable('settings could not be prepared (see the endpoint load error)');
  return null;
}

/**
 * Step 2: the configured methods; GET and HEAD only with the bodyless formats (spec "Ingest /
 * method"), even if a stored record lists them for another format.
 */
export function checkMethod(endpoint: EndpointRecord, method: string): IngestRejection | null {
  const allowed = endpoint.methods.filter((m) => methodAllowedForFormat(m, endpoint.payload_format));
  return allowed.includes(method) ? null : rejections.methodNotAllowed(allowed);
}

/**
 * The source address must be an IP address before anything is decided on it or recorded: with
 * TRUST_PROXY_HOPS ≥ 1 it is an X-Forwarded-For entry, which may hold any text. A message
 * carries at most MAX_SOURCE_IP_LENGTH characters of it (the row keeps that much of the text).
 */
export function checkSourceAddress(req: IngestRequest): IngestRejection | null {
  if (isIP(req.sourceIp) !== 0 && req.sourceIp.length <= MAX_SOURCE_IP_LENGTH) return null;
  return rejections.malformedHeader('The X-Forwarded-For header does not carry a valid client IP address.');
}

/** IP lists run before authentication: a blocked address learns nothing about the credentials. */
export function checkIpAccess(settings: EndpointSettings, sourceIp: string): IngestRejection | null {
  const check = settings.ipAccess(sourceIp);
  return check.ok ? null : fromCheck(check);
}

/** Step 3 (spec "Authentication / Inbound" rule 1): 401 AUTH_FAILED; the row says why. */
export function checkInboundAuth(
  settings: EndpointSettings,
  req: IngestRequest,
  rawBody: Buffer,
): IngestRejection | null {
  const result = verifyInbound(settings.inboundAuth, inboundRequestOf(req, rawBody), req.receivedAt);
  return result.ok ? null : rejections.authFailed(result.reason);
}

/** What inbound verification (and a signed handshake) reads of the request. */
export function inboundRequestOf(req: IngestRequest, rawBody: Buffer): InboundRequest {
  return { method: req.method, url: req.publicUrl, headers: req.headers, rawBody };
}

/** Step 4: the payload per the endpoint's format, within the plan payload limit. */
export function readEndpointPayload(
  view: ReadyView,
  req: IngestRequest,
  rawBody: Buffer,
): { ok: true; payload: Payload } | { ok: false; rejection: IngestRejection } {
  const { base64Param } = view.settings;
  const result = readPayload(
    view.endpoint.payload_format,
    { method: req.method, contentType: headerOf(req, 'content-type'), rawBody, rawQuery: req.rawQuery },
    {
      base64ParamName: base64Param.name,
      base64ParamRequired: base64Param.required,
      limits: { payloadBytes: view.plan.payload_limit_bytes },
    },
  );
  return result.ok ? result : { ok: false, rejection: fromCheck(result) };
}

/**
 * Step 5: required headers, body filters, field validation — in that order. The pattern rules
 * run here only when what they may cost on this request, together with the targets' routing
 * rules (run at accept), is at most `inlineCost` (docs/security.md "Rule cost"); otherwise, once
 * the required headers passed, they are returned as a job for the rule pool.
 */
export function checkContent(
  view: ReadyView,
  req: IngestRequest,
  rawBody: Buffer,
  payload: Payload,
  inlineCost: number,
): IngestRejection | null | { pooled: PooledJob } {
  const rules = view.settings.contentRules;
  const request = {
    format: view.endpoint.payload_format,
    headers: req.headers,
    rawBody,
    rawQuery: req.rawQuery,
    data: payload.data,
  };
  if (ruleCost(view, request) <= inlineCost) {
    const check = checkContentRules(rules, request);
    return check.ok ? null : fromCheck(check);
  }
  const headers = checkHeaders(rules, request);
  if (!headers.ok) return fromCheck(headers);
  return { pooled: { rules: pooledRulesOf(view), data: payload.data, ...patternSubjects(request) } };
}

/**
 * What a request's pattern rules may cost, before any runs: its endpoint's body filters and field
 * rules and its targets' routing rules together (docs/security.md "Rule cost").
 */
export function ruleCost(view: ReadyView, request: ContentRequest): number {
  let cost = contentRulesCost(view.settings.contentRules, request);
  for (const t of view.targets) if (t.route !== null) cost += t.route.cost(request.data);
  return cost;
}

/** The endpoint's pattern rules as stored, for a worker of the rule pool to compile. */
function pooledRulesOf(view: ReadyView): PooledRules {
  return {
    key: view.rulesKey,
    body_filters: view.endpoint.body_filters ?? [],
    field_rules: view.endpoint.field_rules ?? [],
    routing: view.targets.map((t) => t.routing),
  };
}

/**
 * Captcha runs with the payload checks, last among them: it is the only one that calls out.
 * Returns the token to verify, `null` when captcha is off for this endpoint or format.
 */
export function captchaToken(
  settings: EndpointSettings,
  format: PayloadFormat,
  data: unknown,
): IngestRejection | string | null {
  if (!settings.captcha || !featuresFor(format, data).captcha) return null;
  const token = extractCaptchaToken(format, data, settings.captcha.field);
  return token.ok ? token.token : fromCheck(token);
}

/** Longest Idempotency-Key value: what Stripe and the IETF draft's examples use. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const IDEMPOTENCY_KEY_TEXT = /^[\x20-\x7e]+$/;

/**
 * The sender's Idempotency-Key, if any (docs/ingest.md "Idempotency-Key"): 1–255 printable
 * ASCII characters, or a 400 MALFORMED_HEADER. Checked after authentication, so only a sender
 * with the endpoint's credentials can take or test a key.
 */
export function idempotencyKeyOf(req: IngestRequest): { key: string | null } | { rejection: IngestRejection } {
  const value = headerOf(req, 'idempotency-key');
  if (value === undefined) return { key: null };
  if (value.length === 0 || value.length > MAX_IDEMPOTENCY_KEY_LENGTH || !IDEMPOTENCY_KEY_TEXT.test(value)) {
    return {
      rejection: rejections.malformedHeader(
        `The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters.`,
      ),
    };
  }
  return { key: value };
}

/** Step 6: the quota 429 carries Retry-After 60, the rate 429 the time until a slot frees. */
export function limitRejection(decision: Exclude<LimitDecision, { admitted: true }>): IngestRejection {
  return decision.limit === 'quota' ? rejections.quotaExceeded() : rejections.rateLimited(decision.retryAfterSeconds);
}

function headerOf(req: IngestRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
