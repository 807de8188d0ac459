import net from 'node:net';

/**
 * A receiver whose idle keep-alive connections close just as Relay reuses them
 * (docs/delivery.md "Stale connections"). A raw TCP server, so the close can be placed exactly:
 * it answers the first request of each connection with a kept-alive 200 and resets the
 * connection when a later request arrives on it — what a request written onto a connection the
 * receiver is closing meets.
 */
export class ClosingReceiver {
  /** connections opened, requests answered, connections reset (each on a request that had arrived) */
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
