import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ENDPOINT_METHODS } from '@relay/endpoints';
import type { Logger } from '@relay/logging';

export interface IngestServerOptions {
  /** time a sender has to send the request line and headers */
  headersTimeoutMs: number;
  /** time a sender has to send the body once the gateway starts reading it (read-body.ts answers 408) */
  bodyTimeoutMs: number;
  logger: Logger;
  /** counts requests Node refused before the app saw them, by code */
  onClientError(code: string): void;
}

/**
 * Node's backstop for a request still incomplete after headers + body time (a body the app never
 * reads, e.g. behind a 404): it answers 408 and closes. The margin lets the app's own 408, with
 * its activity row, come first whenever the app reads the body.
 */
const REQUEST_TIMEOUT_MARGIN_MS = 5000;

/**
 * How often Node looks for requests past their timeouts (its default is 30 s, which would let a
 * trickled header block live up to 30 s past HEADERS_TIMEOUT_MS). One pass over the open
 * connections per second is cheap.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/**
 * Lingering close: how long the gateway goes on reading (and discarding) a body it refused after
 * its answer went out, before it closes the connection whatever is still coming. nginx's
 * `lingering_timeout` is 5 s for the same reason.
 */
const LINGER_MS = 5000;

/** Idle keep-alive connections: longer than the 60 s idle timeout of common load balancers. */
const KEEP_ALIVE_TIMEOUT_MS = 65000;

/**
 * The public HTTP server of the ingest URL, hardened around the express app:
 *
 * - Timeouts: a sender that trickles headers or a body cannot hold a connection for Node's
 *   default 300 s (`requestTimeout`) — see docs/ingest.md "Timeouts".
 * - `Expect`: anything but `100-continue` (even an empty value) would get a bare 417 from Node
 *   before Relay sees the request. RFC 9110 §10.1.1 lets a server ignore an expectation it does
 *   not support, and the spec strips Expect from forwarding, so such requests are processed
 *   like any other. `100-continue` is answered by read-body.ts only when the body is about to
 *   be read: a request refused before that (unknown endpoint, wrong method) never sends it.
 * - Requests Node cannot parse (malformed or oversized headers, a timeout) get the same JSON
 *   error shape as every other refusal, instead of a bare status line; so does CONNECT, which
 *   Node would close unanswered.
 */
export function createIngestServer(app: RequestListener, opts: IngestServerOptions): Server {
  // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400. Node's own check answers it with
  // a bare status line, so it is off and the same refusal is made here, in Relay's shape.
  const listener: RequestListener = (req, res) => {
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      opts.onClientError('bad_request');
      const body = JSON.stringify({ code: 'bad_request', message: 'An HTTP/1.1 request must carry a Host header.' });
      res.writeHead(400, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
        Connection: 'close',
      });
      res.end(body);
      return;
    }
    app(req, res);
  };
  const server = createServer(
    {
      headersTimeout: opts.headersTimeoutMs,
      requestTimeout: opts.headersTimeoutMs + opts.bodyTimeoutMs + REQUEST_TIMEOUT_MARGIN_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      requireHostHeader: false,
    },
    listener,
  );
  server.on('connection', (socket: Socket) => lingerOnClose(socket, LINGER_MS));
  server.on('checkExpectation', listener);
  server.on('checkContinue', listener);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket, opts));
  // Node hands CONNECT (a proxy tunnel) to 'connect' listeners and closes the socket unanswered
  // without one; Relay is no proxy, so it is refused like any method an endpoint does not accept.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    opts.onClientError('method_not_allowed');
    // RFC 9110 §15.5.6: a 405 names the methods that can work; here, any an endpoint can accept
    writeAnswer(socket, {
      status: 405,
      reason: 'Method Not Allowed',
      code: 'method_not_allowed',
      message: 'CONNECT is not accepted.',
      allow: ENDPOINT_METHODS.join(', '),
    });
  });
  return server;
}

/**
 * A connection closed while the sender is still sending its body (a 413 before the whole upload,
 * a 408, a refusal before the body was read) must not be reset: a TCP reset makes the sender's
 * kernel drop what it has not read yet — the answer — and the sender sees a broken pipe instead
 * of a 413. So where Node's HTTP server would close the connection after an answer (it calls
 * `destroySoon()` once the response is finished), the gateway half-closes instead: the answer and
 * a FIN go out, Node's parser goes on discarding what arrives (ingest-route.ts resumes the
 * request), and the socket is destroyed when the sender closes its side or after `lingerMs`,
 * whichever comes first. A connection whose sender has finished sending closes at once, as before.
 */
function lingerOnClose(socket: Socket, lingerMs: number): void {
  const closeNow = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    if (socket.readableEnded || socket.destroyed) closeNow();
    else closeLingering(socket, lingerMs);
  };
}

/** FIN after what was written; destroyed after `lingerMs` unless the sender closed its side first. */
function closeLingering(socket: Duplex, lingerMs: number): void {
  socket.end();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** What Node's parser refused, as Relay's `{ code, message }` (no endpoint is known yet: no row). */
interface RawAnswer {
  status: number;
  reason: string;
  code: string;
  message: string;
  allow?: string;
}

const CLIENT_ERRORS: Record<string, RawAnswer> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    code: 'headers_too_large',
    message: 'The request headers are too large.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    code: 'request_timeout',
    message: 'The request was not received in time.',
  },
};
const BAD_REQUEST: RawAnswer = {
  status: 400,
  reason: 'Bad Request',
  code: 'bad_request',
  message: 'The request is not valid HTTP.',
};

function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, opts: IngestServerOptions): void {
  const answer = CLIENT_ERRORS[err.code ?? ''] ?? BAD_REQUEST;
  // never the raw packet: it may hold credentials
  opts.logger.info('request refused by the HTTP parser', { code: answer.code, error: err.code ?? err.message });
  opts.onClientError(answer.code);
  // As Node's own handler: answer only if nothing of a response went out on this socket yet.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse<IncomingMessage> | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  writeAnswer(socket, answer);
}

/** A whole answer written to a socket that has no ServerResponse, then the connection closed. */
function writeAnswer(socket: Duplex, answer: RawAnswer): void {
  const body = JSON.stringify({ code: answer.code, message: answer.message });
  const head = [
    `HTTP/1.1 ${answer.status} ${answer.reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  if (answer.allow) head.push(`Allow: ${answer.allow}`);
  socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  // The lingering close of lingerOnClose for a connection Node's parser gave up on (a 1 MB
  // request line, a header block over the limit): what the sender still sends is no longer
  // parsed (the parser is Node's 'data' listener) but read and dropped.
  socket.removeAllListeners('data');
  socket.on('data', () => undefined);
  socket.resume();
  socket.once('end', () => socket.destroy());
  closeLingering(socket, LINGER_MS);
}
