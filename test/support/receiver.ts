import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSigned } from './rsa-keys';

/** One request as the receiver saw it on the wire. */
export interface CapturedRequest {
  method: string;
  url: string;
  /** Node's lower-cased header map */
  headers: http.IncomingHttpHeaders;
  /** name/value pairs in arrival order, names as sent */
  rawHeaders: string[];
  body: Buffer;
}

export interface ReceiverResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

type Responder = (req: CapturedRequest) => ReceiverResponse;

/**
 * A local capture server standing in for a webhook receiver (svix tests/it/utils
 * `TestReceiver`): listens on 127.0.0.1, an ephemeral port, records every request
 * (method, headers, raw body) and answers with a configurable response (default 200).
 */
export class TestReceiver {
  readonly requests: CapturedRequest[] = [];
  private responder: Responder = () => ({ status: 200, body: 'ok' });
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: http.Server,
    readonly scheme: 'http' | 'https',
  ) {
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const captured: CapturedRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          rawHeaders: req.rawHeaders,
          body: Buffer.concat(chunks),
        };
        this.requests.push(captured);
        const answer = this.responder(captured);
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
        this.waiters.splice(0).forEach((w) => w());
      });
    });
  }

  /** A plain-HTTP receiver. */
  static start(): Promise<TestReceiver> {
    return TestReceiver.listen(new TestReceiver(http.createServer(), 'http'));
  }

  /** An HTTPS receiver with a freshly generated self-signed certificate for 127.0.0.1/localhost. */
  static startHttps(): Promise<TestReceiver> {
    const pems = selfSigned([{ name: 'commonName', value: 'localhost' }], {
      algorithm: 'sha256',
      days: 1,
      extensions: [
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    return TestReceiver.listen(new TestReceiver(https.createServer({ key: pems.private, cert: pems.cert }), 'https'));
  }

  private static listen(r: TestReceiver): Promise<TestReceiver> {
    return new Promise((resolve, reject) => {
      r.server.once('error', reject);
      r.server.listen(0, '127.0.0.1', () => resolve(r));
    });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** e.g. `http://127.0.0.1:41234/hook` */
  url(path = '/hook'): string {
    return `${this.scheme}://127.0.0.1:${this.port}${path}`;
  }

  respondWith(answer: ReceiverResponse | Responder): void {
    this.responder = typeof answer === 'function' ? answer : () => answer;
  }

  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  async waitForRequests(count: number, timeoutMs = 2000): Promise<CapturedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`receiver got ${this.requests.length} of ${count} requests in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.requests.slice(0, count);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
