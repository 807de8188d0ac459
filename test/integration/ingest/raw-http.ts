import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** One HTTP/1.1 answer read off a raw socket. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: any;
  /** statuses of interim (1xx) answers before it, e.g. [100] */
  interim: number[];
  /** the server closed the connection after answering */
  closed: boolean;
}

export interface RawSend {
  /** written in order; a number waits that many ms before the next piece */
  pieces: (string | Buffer | number)[];
  /** give up (and fail) after this long without a complete answer */
  timeoutMs?: number;
  /** after a complete answer, wait this long for the server to close the connection */
  closeWaitMs?: number;
}

/**
 * Sends bytes exactly as given to `host:port` (what fetch refuses to send: `Expect` headers,
 * malformed headers, trickled bodies, lying Content-Lengths) and reads one answer. Resolves
 * with the first complete answer (status line, headers, Content-Length body); rejects on a
 * timeout, or when the connection closes with no answer at all.
 */
export function rawRequest(url: string, send: RawSend): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const timeoutMs = send.timeoutMs ?? 10000;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let received = Buffer.alloc(0);
    let answer: Omit<RawAnswer, 'closed'> | null = null;
    const stopWriting = new AbortController();
    const timer = setTimeout(
      () =>
        done(
          new Error(
            `no complete answer within ${timeoutMs} ms; got ${JSON.stringify(received.toString('latin1').slice(0, 200))}`,
          ),
        ),
      timeoutMs,
    );
    let closeTimer: NodeJS.Timeout | undefined;
    const done = (err: Error | null, closed = false): void => {
      clearTimeout(timer);
      clearTimeout(closeTimer);
      stopWriting.abort();
      socket.destroy();
      if (err) reject(err);
      else resolve({ ...answer!, closed });
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      answer ??= parse(received);
      if (answer && !closeTimer) closeTimer = setTimeout(() => done(null, false), send.closeWaitMs ?? 0);
    });
    socket.on('close', () => {
      answer ??= parse(received);
      if (answer) done(null, true);
      else
        done(
          new Error(
            `connection closed without an answer; got ${JSON.stringify(received.toString('latin1').slice(0, 200))}`,
          ),
        );
    });
    socket.on('error', () => undefined);
    socket.once('connect', async () => {
      try {
        for (const piece of send.pieces) {
          if (typeof piece === 'number') await sleep(piece, undefined, { signal: stopWriting.signal });
          else if (!stopWriting.signal.aborted) socket.write(piece);
        }
      } catch {
        // answered (or failed) while waiting to write more: nothing left to send
      }
    });
  });
}

/** A complete answer in `bytes` (skipping interim 1xx answers), or null while incomplete. */
function parse(bytes: Buffer): Omit<RawAnswer, 'closed'> | null {
  let text = bytes.toString('latin1');
  const interim: number[] = [];
  for (;;) {
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
    const status = Number(statusLine!.split(' ')[1]);
    if (status >= 100 && status < 200) {
      interim.push(status);
      text = text.slice(end + 4);
      continue;
    }
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    const rest = Buffer.from(text.slice(end + 4), 'latin1');
    if (rest.length < length) return null;
    const body = rest.subarray(0, length).toString('utf8');
    return { status, headers, body, json: body ? JSON.parse(body) : undefined, interim };
  }
}

/** A request head: request line, Host, the given headers, blank line. */
export function head(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** What a sender that writes its whole upload saw: the first bytes it read, and any write error. */
export interface Upload {
  /** the start of what the server sent (its answer) */
  received: string;
  /** the socket's error while writing or reading (EPIPE, ECONNRESET), or null */
  error: string | null;
  /** the connection was closed (both ways) within `timeoutMs` */
  closed: boolean;
}

/**
 * Writes `head` then `body` in 64 KiB pieces, each after the last was taken (as curl or a browser
 * uploads, whatever the server answered meanwhile), and keeps writing after the server's FIN
 * (allowHalfOpen). Resolves when the connection closes or after `timeoutMs`.
 */
export function uploadWhole(url: string, head: string, body: Buffer, timeoutMs = 10000): Promise<Upload> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    let received = '';
    let error: string | null = null;
    const finish = (closed: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ received, error, closed });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      if (received.length < 512) received += chunk.toString('latin1');
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
    });
    socket.on('close', () => finish(true));
    socket.once('connect', async () => {
      socket.write(head);
      for (let at = 0; at < body.length && !socket.destroyed; at += 65536) {
        if (!socket.write(body.subarray(at, at + 65536))) await new Promise((r) => socket.once('drain', r));
      }
      socket.end();
    });
  });
}
