import net from 'node:net';

/**
 * A raw HTTP/1.1 client on node:net: it writes exactly the bytes it is given (malformed heads,
 * lying Content-Length, broken chunking, lower-case methods, bodies that stop), which no HTTP
 * client library would send, and reads back whatever the server answers, including several
 * answers on one connection and interim 1xx answers.
 */

/** What to write: parts in order, each after an optional pause, then keep the socket open or half-close it. */
export interface WritePlan {
  parts: Array<{ bytes: Buffer; delayMs?: number }>;
  /** 'wait': keep sending nothing (a stalled sender); 'end': half-close after the last part */
  after: 'wait' | 'end';
}

export interface RawResponse {
  status: number;
  /** header names lower-cased; repeated headers joined with ", " */
  headers: Record<string, string>;
  body: Buffer;
}

export interface RawResult {
  /** final answers in arrival order (1xx interim answers are in `interim`) */
  responses: RawResponse[];
  interim: number[];
  /** bytes received that did not form a complete answer */
  unparsed: number;
  /** the server closed the connection (FIN or reset) */
  closedByServer: boolean;
  /** nothing settled the exchange within the bound: no answer and no close */
  timedOut: boolean;
  /** the server answered but kept the connection open past the close grace */
  keptOpen: boolean;
  /** socket error code, e.g. ECONNRESET, EPIPE */
  error: string | null;
  /** ms from the last byte written (or the first answer, if earlier) to the first final answer */
  answerMs: number | null;
}

export interface RawOptions {
  host: string;
  port: number;
  /** how long after the last byte written to wait for an answer or a close */
  boundMs: number;
  /** after a complete answer, how long the server has to close a `Connection: close` exchange */
  closeGraceMs: number;
  /** the request was HEAD: its answers carry no body */
  head: boolean;
}

export function rawExchange(plan: WritePlan, opts: RawOptions): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket = net.connect(opts.port, opts.host);
    const reader = new ResponseReader(opts.head);
    let received = Buffer.alloc(0);
    let lastWriteAt = Date.now();
    let firstAnswerAt: number | null = null;
    let writing = true;
    let settled = false;
    let error: string | null = null;
    let closedByServer = false;
    let timer: NodeJS.Timeout | undefined;

    const finish = (how: { timedOut?: boolean; keptOpen?: boolean }): void => {
      if (settled) return;
      settled = true;
      writing = false;
      clearTimeout(timer);
      socket.destroy();
      const parsed = reader.parse(received, closedByServer);
      resolve({
        responses: parsed.responses,
        interim: parsed.interim,
        unparsed: parsed.unparsed,
        closedByServer,
        timedOut: how.timedOut ?? false,
        keptOpen: how.keptOpen ?? false,
        error,
        answerMs: firstAnswerAt === null ? null : Math.max(0, firstAnswerAt - lastWriteAt),
      });
    };
    const arm = (ms: number, how: { timedOut?: boolean; keptOpen?: boolean }): void => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(how), ms);
    };

    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (firstAnswerAt === null && reader.parse(received, false).responses.length > 0) {
        firstAnswerAt = Date.now();
        // answered: stop sending, and give the server its grace to close the connection
        writing = false;
        arm(opts.closeGraceMs, { keptOpen: true });
      }
    });
    socket.on('end', () => {
      closedByServer = true;
      finish({});
    });
    socket.on('close', () => {
      closedByServer = closedByServer || error !== null;
      finish({});
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code ?? err.message;
    });
    socket.once('connect', () => {
      void (async () => {
        for (const part of plan.parts) {
          if (part.delayMs) await sleep(part.delayMs);
          if (!writing || socket.destroyed) return;
          const flushed = socket.write(part.bytes);
          lastWriteAt = Date.now();
          if (!flushed)
            await new Promise<void>((r) => {
              socket.once('drain', r);
              socket.once('close', r);
            });
          lastWriteAt = Date.now();
        }
        if (!writing || socket.destroyed) return;
        if (plan.after === 'end') socket.end();
        arm(opts.boundMs, { timedOut: true });
      })();
    });
    // a connect that never completes is a hang too
    arm(opts.boundMs, { timedOut: true });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Parses HTTP/1.1 answers from the bytes received so far. */
class ResponseReader {
  constructor(private readonly head: boolean) {}

  parse(buf: Buffer, closed: boolean): { responses: RawResponse[]; interim: number[]; unparsed: number } {
    const responses: RawResponse[] = [];
    const interim: number[] = [];
    let at = 0;
    for (;;) {
      const end = buf.indexOf('\r\n\r\n', at);
      if (end < 0) break;
      const lines = buf.subarray(at, end).toString('latin1').split('\r\n');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
      if (!m) break;
      const status = Number(m[1]);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      }
      const bodyStart = end + 4;
      if (status >= 100 && status < 200) {
        interim.push(status);
        at = bodyStart;
        continue;
      }
      let body: Buffer;
      if (this.head || status === 204 || status === 304) {
        body = Buffer.alloc(0);
      } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
        const chunked = readChunked(buf, bodyStart);
        if (!chunked) break;
        responses.push({ status, headers, body: chunked.body });
        at = chunked.next;
        continue;
      } else if (headers['content-length'] !== undefined) {
        const n = Number(headers['content-length']);
        if (buf.length - bodyStart < n) break;
        body = buf.subarray(bodyStart, bodyStart + n);
      } else {
        // delimited by the close of the connection
        if (!closed) break;
        body = buf.subarray(bodyStart);
      }
      responses.push({ status, headers, body });
      at = bodyStart + body.length;
    }
    return { responses, interim, unparsed: buf.length - at };
  }
}

function readChunked(buf: Buffer, from: number): { body: Buffer; next: number } | null {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) return null;
    const size = parseInt(buf.subarray(at, eol).toString('latin1').split(';')[0]!.trim(), 16);
    if (!Number.isFinite(size)) return null;
    if (size === 0) {
      // the last chunk, optional trailers, then an empty line
      const end = buf.indexOf('\r\n\r\n', eol);
      if (end < 0) return null;
      return { body: Buffer.concat(parts), next: end + 4 };
    }
    if (buf.length < eol + 2 + size + 2) return null;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
