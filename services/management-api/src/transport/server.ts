import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';

export interface ApiServerOptions {
  /** time a client has to send the request line and headers (HEADERS_TIMEOUT_MS) */
  headersTimeoutMs: number;
  /** time a client has for its body on top of that (BODY_TIMEOUT_MS) */
  bodyTimeoutMs: number;
  /** open connections kept at once (MAX_CONNECTIONS) */
  maxConnections: number;
}

/**
 * How often Node looks for requests past their timeouts. Its default, 30 s, would let a
 * trickled header block live up to 30 s past HEADERS_TIMEOUT_MS; one pass a second over the
 * open connections is cheap (the gateway does the same, services/ingest-gateway/src/transport/server.ts).
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/**
 * The HTTP server of the API port (the JSON API and the dashboard), with the gateway's
 * slow-client limits (docs/security.md "Slow clients"): a client that
 * trickles its headers is answered 408 and dropped after `headersTimeoutMs`, one that trickles
 * a body after `headersTimeoutMs + bodyTimeoutMs` (Node's `requestTimeout` counts from the
 * request's first byte), and past `maxConnections` open connections a new one is closed at once —
 * so a few hundred drippers neither hold connections for Node's default 300 s nor exhaust the
 * process's file descriptors.
 */
export function createApiServer(app: RequestListener, opts: ApiServerOptions): Server {
  const server = createServer(
    {
      headersTimeout: opts.headersTimeoutMs,
      requestTimeout: opts.headersTimeoutMs + opts.bodyTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    app,
  );
  server.maxConnections = opts.maxConnections;
  return server;
}
