import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: which event (the sender's number), which copy, and what it answered. */
export interface Arrival {
  n: number;
  eventId: string;
  deliveryId: string;
  attempt: number;
  at: number;
  status: number;
}

/**
 * The webhook target of the chaos run: records every request it gets — the event's number
 * from the body, X-Relay-Event-Id, X-Relay-Delivery-Id, X-Relay-Attempt — and answers 200,
 * except the first attempt of every `failFirstEvery`-th event, which gets 503: those sit in a
 * retry tier, and some of them across the broker restart.
 */
export class ChaosReceiver {
  readonly arrivals: Arrival[] = [];
  /** event number → arrivals answered 2xx */
  readonly delivered = new Map<number, number>();
  /** requests whose body carried no event number (must stay 0) */
  unreadable = 0;
  private readonly server: http.Server;

  constructor(private readonly failFirstEvery: number) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const n = numberOf(Buffer.concat(chunks));
        const attempt = Number(req.headers['x-relay-attempt']);
        if (n === null) {
          this.unreadable += 1;
          res.writeHead(400).end();
          return;
        }
        const status = this.failsFirst(n) && attempt === 1 ? 503 : 200;
        this.arrivals.push({
          n,
          eventId: String(req.headers['x-relay-event-id']),
          deliveryId: String(req.headers['x-relay-delivery-id']),
          attempt,
          at: Date.now(),
          status,
        });
        if (status === 200) this.delivered.set(n, (this.delivered.get(n) ?? 0) + 1);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'try again');
      });
    });
  }

  failsFirst(n: number): boolean {
    return this.failFirstEvery > 0 && n % this.failFirstEvery === 0;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function numberOf(body: Buffer): number | null {
  try {
    const n = (JSON.parse(body.toString('utf8')) as { n?: unknown }).n;
    return typeof n === 'number' && Number.isInteger(n) ? n : null;
  } catch {
    return null;
  }
}
