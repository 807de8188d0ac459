import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export const GIB = 1024 ** 3;

export interface HugeResponseOptions {
  status?: number;
  /** total bytes of the answer as sent (identity), or inflated (gzip) */
  bytes?: number;
  /**
   * `identity`: plain bytes. `gzip`: a gzip bomb labelled `content-encoding: gzip` — members of
   * 16 MiB of zeros each (about 16 KB on the wire), so 1 GiB inflated costs about 1 MB to send:
   * the answer a client inflating it would hold in memory.
   */
  encoding?: 'identity' | 'gzip';
  /** announce the length up front (identity only) instead of streaming chunked */
  declareLength?: boolean;
  contentType?: string;
}

const MEMBER_INFLATED = 16 * 1024 * 1024;
const GZIP_MEMBER = gzipSync(Buffer.alloc(MEMBER_INFLATED), { level: 9 });
const CHUNK = Buffer.alloc(64 * 1024, 'a');

/**
 * A loopback destination whose answer is far larger than any client should read: the bytes are
 * generated as the socket drains (never held), and writing stops as soon as the client goes
 * away. `sent` counts the bytes that were written, so a test can show the client stopped
 * reading instead of draining the whole answer.
 */
export class HugeResponseServer {
  sent = 0;
  requests = 0;

  private constructor(
    private readonly server: http.Server,
    private opts: HugeResponseOptions,
  ) {
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      req.resume();
      req.on('end', () => this.answer(res));
    });
  }

  static async start(opts: HugeResponseOptions = {}): Promise<HugeResponseServer> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new HugeResponseServer(server, opts);
  }

  answerWith(opts: HugeResponseOptions): void {
    this.opts = opts;
    this.sent = 0;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  private answer(res: http.ServerResponse): void {
    this.requests += 1;
    const {
      status = 200,
      bytes = GIB,
      encoding = 'identity',
      declareLength = false,
      contentType = 'application/json',
    } = this.opts;
    const headers: Record<string, string | number> = { 'content-type': contentType };
    if (encoding === 'gzip') headers['content-encoding'] = 'gzip';
    else if (declareLength) headers['content-length'] = bytes;
    res.writeHead(status, headers);
    const chunk = encoding === 'gzip' ? GZIP_MEMBER : CHUNK;
    const perChunk = encoding === 'gzip' ? MEMBER_INFLATED : CHUNK.length;
    let left = Math.ceil(bytes / perChunk);
    let closed = false;
    res.on('close', () => (closed = true));
    const pump = (): void => {
      while (!closed && left > 0) {
        left -= 1;
        this.sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!closed) res.end();
    };
    pump();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Resident set size of a process in bytes, from /proc (Linux): `VmRSS` now, `VmHWM` its peak. */
export function residentBytes(pid: number | 'self' = 'self'): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

export const MIB = 1024 * 1024;
