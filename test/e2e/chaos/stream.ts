import http from 'node:http';

/** What became of one event the stream sent. */
export interface Sent {
  n: number;
  sentAt: number;
  /** 0 until answered; then the time the answer's status line arrived */
  answeredAt: number;
  /** HTTP status; 0 when no answer came (see `error`) */
  status: number;
  /** the body's `code` for anything but 202 */
  code?: string;
  error?: string;
}

export interface StreamOptions {
  host: string;
  port: number;
  path: string;
  events: number;
  /** events per second, kept whatever the answers are (open loop) */
  rate: number;
  /** requests in flight at most; a send that would exceed it waits (counted in `maxLagMs`) */
  maxInFlight: number;
  /** a request with no answer after this is given up (status 0, error 'timeout') */
  answerBoundMs: number;
  /** called every ~10 ms with how many events were sent so far (the fault schedule follows it) */
  onTick?(sent: number): void;
}

export interface StreamResult {
  sent: Sent[];
  startedAt: number;
  endedAt: number;
  /** how far behind its schedule the stream fell at worst (in-flight cap reached, or a slow event loop) */
  maxLagMs: number;
}

/**
 * An open-loop stream of uniquely numbered events (`{"n":<number>}`) to the gateway: event n
 * is sent at start + n/rate whatever happened to the ones before — a sender that does not slow
 * down when Relay has trouble, which is what webhook sources are. Keep-alive connections.
 */
export async function runStream(opts: StreamOptions): Promise<StreamResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxInFlight });
  const sent: Sent[] = new Array(opts.events);
  let next = 0;
  let inFlight = 0;
  let maxLagMs = 0;
  const startedAt = Date.now();
  const interval = 1000 / opts.rate;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let answered = 0;

  const send = (n: number): void => {
    const record: Sent = { n, sentAt: Date.now(), answeredAt: 0, status: 0 };
    sent[n] = record;
    inFlight += 1;
    const body = JSON.stringify({ n });
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      inFlight -= 1;
      answered += 1;
      if (answered === opts.events) finish();
    };
    const req = http.request(
      {
        host: opts.host,
        port: opts.port,
        path: opts.path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        record.answeredAt = Date.now();
        record.status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (record.status !== 202) {
            try {
              record.code = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code?: string }).code;
            } catch {
              record.code = 'unparseable body';
            }
          }
          done();
        });
        res.on('error', (err) => {
          record.error = err.message;
          done();
        });
      },
    );
    req.setTimeout(opts.answerBoundMs, () => req.destroy(new Error('timeout')));
    req.on('error', (err) => {
      record.error = err.message;
      if (record.answeredAt === 0) record.status = 0;
      done();
    });
    req.end(body);
  };

  const timer = setInterval(() => {
    const now = Date.now();
    while (next < opts.events && startedAt + next * interval <= now && inFlight < opts.maxInFlight) {
      maxLagMs = Math.max(maxLagMs, now - (startedAt + next * interval));
      send(next++);
    }
    opts.onTick?.(next);
    if (next >= opts.events) clearInterval(timer);
  }, 5);
  if (opts.events === 0) finish();
  await finished;
  clearInterval(timer);
  agent.destroy();
  return { sent, startedAt, endedAt: Date.now(), maxLagMs };
}
