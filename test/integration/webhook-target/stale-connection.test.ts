import net from 'node:net';
import { createSender } from '@relay/targets';
import type { SendOutcome } from '@relay/targets';

/**
 * A receiver whose idle keep-alive connections close just as Relay reuses them
 * (docs/delivery.md "Stale connections"). A raw TCP server, so the close can be placed exactly:
 * it answers the first request of each connection with a kept-alive 200 and resets the
 * connection when a later request arrives on it — what a request written onto a connection the
 * receiver is closing meets.
 */
class ClosingReceiver {
  /** connections opened, requests answered, connections reset */
  readonly seen = { connections: 0, answered: 0, resets: 0 };
  private readonly sockets = new Set<net.Socket>();
  private constructor(
    private readonly server: net.Server,
    /** whether the first request of a connection is reset too */
    private readonly resetFirst: boolean,
  ) {}

  static async start(opts: { resetFirst?: boolean } = {}): Promise<ClosingReceiver> {
    const r = new ClosingReceiver(net.createServer(), opts.resetFirst ?? false);
    r.server.on('connection', (socket) => r.serve(socket));
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  url(): string {
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}/hook`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private serve(socket: net.Socket): void {
    this.seen.connections += 1;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let served = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      if (served > 0 || this.resetFirst) {
        this.seen.resets += 1;
        socket.resetAndDestroy();
        return;
      }
      buffered += chunk.toString('latin1');
      const headEnd = buffered.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(buffered.slice(0, headEnd))?.[1] ?? 0);
      if (buffered.length < headEnd + 4 + length) return;
      served += 1;
      this.seen.answered += 1;
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok',
      );
    });
  }
}

const request = (url: string) => ({
  url,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from('{"n":1}'),
});
const statusOf = (o: SendOutcome) => ('response' in o ? o.response.status : o.error.code);

describe('stale keep-alive connections (docs/delivery.md "Stale connections")', () => {
  let receiver: ClosingReceiver;
  afterEach(() => receiver.close());

  it('a request reset on a reused connection before any answer is sent again on a new one: the delivery succeeds', async () => {
    receiver = await ClosingReceiver.start();
    const send = createSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.0/8'] });
    expect(statusOf(await send(request(receiver.url())))).toBe(200);
    // the kept-alive connection is reused and reset; the request goes out again on a second one
    expect(statusOf(await send(request(receiver.url())))).toBe(200);
    expect(receiver.seen).toEqual({ connections: 2, answered: 2, resets: 1 });
  });

  it('a reset on a new connection is a failure, sent once', async () => {
    receiver = await ClosingReceiver.start({ resetFirst: true });
    const send = createSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.0/8'] });
    expect(statusOf(await send(request(receiver.url())))).toBe('ECONNRESET');
    expect(receiver.seen).toEqual({ connections: 1, answered: 0, resets: 1 });
  });

  it('gives up after two more tries when every kept-alive connection it picks was closed', async () => {
    receiver = await ClosingReceiver.start();
    const send = createSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.0/8'] });
    // three requests at once open three connections, each kept alive after its answer
    const warm = await Promise.all([1, 2, 3].map(() => send(request(receiver.url()))));
    expect(warm.map(statusOf)).toEqual([200, 200, 200]);
    // each of the three kept-alive connections is picked in turn and reset
    expect(statusOf(await send(request(receiver.url())))).toBe('ECONNRESET');
    expect(receiver.seen).toEqual({ connections: 3, answered: 3, resets: 3 });
  });
});
