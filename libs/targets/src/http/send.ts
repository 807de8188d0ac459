import got from 'got';
import type { Agents } from 'got';
import type { OutboundRequest, SendOutcome } from '../kind';
import { createSsrfAgents } from '../ssrf/agents';

export interface SendOptions {
  timeoutMs: number;
  /** bytes of the response body kept for classification and the activity log */
  maxResponseBytes?: number;
  /** http/https agents, e.g. the SSRF guard's */
  agent?: Agents;
}

export interface SenderOptions {
  timeoutMs: number;
  maxResponseBytes?: number;
  /** SSRF_ALLOW_CIDRS: CIDRs exempt from the SSRF guard; empty in production unless an operator opts in */
  allowCidrs: readonly string[];
}

/**
 * The sender deliverers use: `sendRequest` bound to the SSRF guard's agents, so no outbound
 * delivery can be made without the guard. Throws at creation on an invalid allowlist.
 */
export function createSender(opts: SenderOptions): (req: OutboundRequest) => Promise<SendOutcome> {
  const agent = createSsrfAgents({ allowCidrs: opts.allowCidrs });
  const send: SendOptions = { timeoutMs: opts.timeoutMs, agent };
  if (opts.maxResponseBytes !== undefined) send.maxResponseBytes = opts.maxResponseBytes;
  return (req) => sendRequest(req, send);
}

/**
 * Sends one attempt. Redirects are never followed (a redirect could point at a private
 * address, and the spec's receivers are the configured URL only); TLS certificates are
 * always verified; got's own retries are off because retries are scheduled on the broker.
 * A refused or failed connection comes back as `{ error: { code } }`, never thrown: the code
 * is Node's (ECONNREFUSED, ETIMEDOUT, DEPTH_ZERO_SELF_SIGNED_CERT, …) or SSRF_BLOCKED.
 */
export async function sendRequest(req: OutboundRequest, opts: SendOptions): Promise<SendOutcome> {
  const started = performance.now();
  try {
    const res = await got.post(req.url, {
      headers: req.headers,
      body: req.body,
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: opts.timeoutMs },
      https: { rejectUnauthorized: true },
      responseType: 'buffer',
      decompress: true,
      agent: opts.agent,
    });
    const max = opts.maxResponseBytes ?? 4096;
    return {
      response: { status: res.statusCode, headers: res.headers, body: res.body.subarray(0, max).toString('utf8') },
      durationMs: performance.now() - started,
    };
  } catch (err) {
    return { error: failureOf(err), durationMs: performance.now() - started };
  }
}

function failureOf(err: unknown): { code: string; message: string } {
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  // got wraps the socket's error; its code is copied, but prefer the original when present
  const code = e.cause?.code ?? e.code ?? e.name ?? 'ERROR';
  return { code, message: String(e.message ?? err).slice(0, 300) };
}
