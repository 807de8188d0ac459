import got from 'got';
import type { Agents } from 'got';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { NetworkFailure, OutboundRequest, ResponseSummary, SendOutcome } from '../kind';
import { createSsrfAgents, parseHostRoutes } from '../ssrf/agents';
import type { SsrfAgents } from '../ssrf/agents';
import { ClientPool, ownedKey } from '../transports/pool';
import { createAddressPolicy } from '../ssrf/policy';
import { RESET_UNANSWERED, RESPONSE_TOO_LARGE } from './failures';

/** Bytes of a response body kept for classification and the activity log. */
export const KEPT_RESPONSE_BYTES = 4096;

/**
 * A 2xx answer whose body is longer than this is not a completed delivery (docs/delivery.md
 * "Responses too large"). Receivers acknowledge with a status and a short body; the largest
 * legitimate answer Relay expects is Discord's saved message (`?wait=true`), a few KB.
 */
export const MAX_RESPONSE_BODY_BYTES = 65_536;

/**
 * A request for an API a kind talks to (Google's token and Sheets endpoints): an attempt's
 * POST, or the GET/PUT such an API needs around it. Same guard, limits and timeout.
 */
export type HttpRequest = OutboundRequest & {
  method?: 'GET' | 'POST' | 'PUT';
  /**
   * May be sent again when a reused kept-alive connection is reset before any answer (below);
   * a target kind's requests follow its `resendable`. Absent: never, the safe side for a
   * request whose effect is not known to be idempotent.
   */
  resendable?: boolean;
};

interface SendOptions {
  timeoutMs: number;
  /** bytes of the response body kept for classification and the activity log (default 4 KB) */
  maxResponseBytes?: number;
  /** reading stops past this many body bytes (default MAX_RESPONSE_BODY_BYTES) */
  responseLimitBytes?: number;
  /** http/https agents, e.g. the SSRF guard's */
  agent?: Agents;
}

interface SenderOptions {
  timeoutMs: number;
  maxResponseBytes?: number;
  responseLimitBytes?: number;
  /** SSRF_ALLOW_CIDRS: CIDRs exempt from the SSRF guard; empty in production unless an operator opts in */
  allowCidrs: readonly string[];
  /** extra trust anchors (PEM) for an API behind a private CA (GOOGLE_CA_FILE) */
  ca?: string;
  /** HOST_ROUTES: `host=address:port` entries (parseHostRoutes); each address must pass the guard */
  hostRoutes?: readonly string[];
}

/**
 * The sender deliverers and the gateway's captcha check use: `sendRequest` bound to the SSRF
 * guard's agents, so no outbound call can be made without the guard. Throws at creation on an
 * invalid allowlist.
 */
export function createSender(opts: SenderOptions): Sender {
  const routes = opts.hostRoutes?.length
    ? parseHostRoutes(opts.hostRoutes, createAddressPolicy({ allowCidrs: opts.allowCidrs }))
    : undefined;
  const guard = { allowCidrs: opts.allowCidrs, ...(routes ? { routes } : {}) };
  const agent = createSsrfAgents({ ...guard, ...(opts.ca !== undefined ? { ca: opts.ca } : {}) });
  const send: SendOptions = { timeoutMs: opts.timeoutMs, agent };
  if (opts.maxResponseBytes !== undefined) send.maxResponseBytes = opts.maxResponseBytes;
  if (opts.responseLimitBytes !== undefined) send.responseLimitBytes = opts.responseLimitBytes;
  const targetAgents = new ClientPool<Agents & SsrfAgents>({
    healthy: () => true,
    close: (a) => (a.http.destroy(), a.https.destroy()),
    maxClients: TLS_AGENTS_MAX,
    idleMs: TLS_AGENTS_IDLE_MS,
  });
  const sender = async (req: HttpRequest): Promise<SendOutcome> => {
    if (!req.tls) return sendRequest(req, send);
    const { owner, cert, key, ca } = req.tls;
    // keyed by the target and a digest of its settings: a changed certificate gets new connections
    const agents = await targetAgents.get(
      ownedKey(owner, JSON.stringify([cert, key, ca])),
      async () =>
        createSsrfAgents({
          ...guard,
          // a pinned CA replaces the default roots for this target only
          ...((ca ?? opts.ca) !== undefined ? { ca: ca ?? opts.ca } : {}),
          ...(cert !== undefined && key !== undefined ? { clientCertificate: { cert, key } } : {}),
        }),
      owner,
    );
    return sendRequest(req, { ...send, agent: agents });
  };
  return Object.assign(sender, { release: (id: string) => targetAgents.release(id) });
}

/** Sends one attempt; `release` closes the connections of a changed or deleted target (or endpoint's targets) that has its own (mutual TLS). */
export interface Sender {
  (req: HttpRequest): Promise<SendOutcome>;
  release(id: string): void;
}

/**
 * Targets with TLS settings of their own (mutual TLS) each get their own agents, so no
 * connection that presented one target's client certificate is ever reused for another. Held
 * while used; an idle target's connections close like any kept-alive ones would.
 */
const TLS_AGENTS_MAX = 1000;
const TLS_AGENTS_IDLE_MS = 300_000;

/**
 * Sends one attempt. Redirects are never followed (a redirect could point at a private
 * address, and the spec's receivers are the configured URL only); TLS certificates are
 * always verified; got's own retries are off because retries are scheduled on the broker.
 * A refused or failed connection comes back as `{ error: { code } }`, never thrown: the code
 * is Node's (ECONNREFUSED, ETIMEDOUT, DEPTH_ZERO_SELF_SIGNED_CERT, …), SSRF_BLOCKED or
 * RESPONSE_TOO_LARGE.
 *
 * Memory stays bounded whatever the destination answers: the body is read
 * as a stream with decompression off and `accept-encoding: identity`, so the bytes counted are
 * the bytes received; only the first `maxResponseBytes` are kept, and reading stops (the
 * request is aborted) once `responseLimitBytes` have arrived. The timeout covers the whole
 * exchange, so a trickling body ends too.
 */
export async function sendRequest(req: HttpRequest, opts: SendOptions): Promise<SendOutcome> {
  const started = performance.now();
  for (let resends = 0; ; resends++) {
    const { outcome, staleConnection } = await sendOnce(req, opts);
    const counted = resends > 0 ? { resends } : {};
    if (staleConnection && req.resendable !== true && 'error' in outcome)
      return { error: ambiguous(outcome.error), durationMs: performance.now() - started, ...counted };
    if (!staleConnection || resends === STALE_CONNECTION_RETRIES)
      return { ...outcome, durationMs: performance.now() - started, ...counted };
  }
}

/** A request that may have arrived, not sent again: the next attempt must find out (a retry). */
function ambiguous(failure: NetworkFailure): NetworkFailure {
  return {
    code: RESET_UNANSWERED,
    message: `${failure.code} on a reused connection before any answer: the request may have arrived; not sent again`,
  };
}

type Outcome = { response: ResponseSummary } | { error: NetworkFailure };

/** One request; `staleConnection`: it failed on a kept-alive connection the receiver had closed (below). */
function sendOnce(req: HttpRequest, opts: SendOptions): Promise<{ outcome: Outcome; staleConnection: boolean }> {
  const keep = opts.maxResponseBytes ?? KEPT_RESPONSE_BYTES;
  const limit = opts.responseLimitBytes ?? MAX_RESPONSE_BODY_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    let stream: ReturnType<typeof got.stream> | undefined;
    const done = (outcome: Outcome, staleConnection = false): void => {
      if (settled) return;
      settled = true;
      stream?.destroy();
      resolve({ outcome, staleConnection });
    };
    try {
      const method = req.method ?? 'POST';
      stream = got.stream(req.url, {
        method,
        // identity last: neither a configured nor a forwarded header can ask for a compressed answer
        headers: { ...req.headers, 'accept-encoding': 'identity' },
        body: method === 'GET' ? undefined : req.body,
        followRedirect: false,
        throwHttpErrors: false,
        retry: { limit: 0 },
        timeout: { request: opts.timeoutMs },
        https: { rejectUnauthorized: true },
        decompress: false,
        agent: opts.agent,
      });
    } catch (err) {
      return done({ error: failureOf(err) });
    }
    let request: ClientRequest | null = null;
    let response: IncomingMessage | null = null;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let received = 0;
    const tooLarge = (res: IncomingMessage): void => {
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        done({
          error: {
            code: RESPONSE_TOO_LARGE,
            message: `HTTP ${status} with a response body over ${limit} bytes; reading stopped`,
          },
        });
      } else {
        // the status already says the attempt failed; it is classified as usual on the part kept
        done({ response: summary(res, kept) });
      }
    };
    stream.on('request', (r: ClientRequest) => (request = r));
    stream.on('response', (res: IncomingMessage) => {
      response = res;
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) tooLarge(res);
    });
    stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (keptBytes < keep) {
        // a copy, so a kept slice never pins a large socket buffer
        const part = Buffer.from(chunk.subarray(0, keep - keptBytes));
        kept.push(part);
        keptBytes += part.length;
      }
      if (received > limit && response) tooLarge(response);
    });
    stream.on('end', () => {
      if (response) done({ response: summary(response, kept) });
      else done({ error: { code: 'ERROR', message: 'the connection ended without a response' } });
    });
    stream.on('error', (err: unknown) => {
      const failure = failureOf(err);
      done(
        { error: failure },
        response === null && request?.reusedSocket === true && STALE_CONNECTION_CODES.has(failure.code),
      );
    });
  });
}

/**
 * A kept-alive connection that the receiver closes after it sat idle can be picked for a request
 * just as the close arrives. The request then fails with ECONNRESET or EPIPE before any answer,
 * on a connection that had served earlier requests (`request.reusedSocket`, the case Node's http
 * documentation describes). A `resendable` request is sent again on another connection, at most
 * this many times, rather than recorded as a failed attempt: a receiver with a short keep-alive
 * timeout would otherwise fail deliveries after every lull. The receiver almost always closed
 * before reading the request; if it did read it, it gets it twice under the same
 * X-Relay-Delivery-Id, as with any redelivery (docs/delivery.md), and the outcome's `resends`
 * counts it. Any other request ends with the failure, marked as possibly arrived. A reset on a
 * new connection, or after any byte of an answer, is a failure as before.
 */
const STALE_CONNECTION_RETRIES = 2;
const STALE_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE']);

function summary(
  res: IncomingMessage,
  kept: Buffer[],
): { status: number; headers: IncomingMessage['headers']; body: string } {
  return { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(kept).toString('utf8') };
}

function failureOf(err: unknown): { code: string; message: string } {
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  // got wraps the socket's error; its code is copied, but prefer the original when present
  const code = e.cause?.code ?? e.code ?? e.name ?? 'ERROR';
  return { code, message: String(e.message ?? err).slice(0, 300) };
}
