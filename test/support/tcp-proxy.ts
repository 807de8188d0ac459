import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a real server, so a test can cut a service's
 * connection (close every socket and refuse new ones), black-hole it (accept, forward
 * nothing) or hold it (keep every byte and send it on at restore: a server that answers late)
 * without stopping the shared server, then restore it.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private mode: 'forward' | 'blackhole' | 'hold' = 'forward';
  /** bytes kept while held, in order, with the socket each is for */
  private held: Array<[net.Socket, Buffer]> = [];
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** Closes every connection and stops listening: the server looks down. */
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Keeps connections open but drops every byte in both directions. */
  blackhole(): void {
    this.mode = 'blackhole';
  }

  /** Keeps connections open and keeps every byte both ways until `restore` sends them on. */
  hold(): void {
    this.mode = 'hold';
  }

  /** Listens again on the same port and forwards (first what was held). */
  async restore(): Promise<void> {
    this.mode = 'forward';
    for (const [to, bytes] of this.held.splice(0)) if (!to.destroyed) to.write(bytes);
    if (!this.server) await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }

  private accept(client: net.Socket): void {
    const upstream = net.connect(this.targetPort, this.targetHost);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    const pass = (to: net.Socket, d: Buffer): void => {
      if (this.mode === 'forward') to.write(d);
      else if (this.mode === 'hold') this.held.push([to, d]);
    };
    client.on('data', (d: Buffer) => pass(upstream, d));
    upstream.on('data', (d: Buffer) => pass(client, d));
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  }
}
