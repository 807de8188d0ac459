import { EventEmitter } from 'node:events';
import amqp from 'amqplib';
import type { ChannelModel, ConfirmChannel, Channel } from 'amqplib';
import type { Logger } from '@relay/logging';
import { declareTopology } from './topology';
import type { TopologyOptions } from './topology';

interface BrokerConnectionOptions {
  /** one AMQP URL, or a cluster's nodes separated by commas (RABBITMQ_URL) */
  url: string;
  topology: TopologyOptions;
  logger: Logger;
  /** connection name shown in the management UI */
  connectionName: string;
  heartbeatSeconds?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
}

export interface BrokerSession {
  connection: ChannelModel;
  /** publisher-confirm channel shared by all publishes of this process */
  confirmChannel: ConfirmChannel;
  /** id that changes on every reconnect, so stale delivery tags are never acked */
  generation: number;
}

/**
 * Owns one AMQP connection and keeps it alive: connects with capped exponential backoff,
 * re-declares the topology and reopens channels on every reconnect, and emits `up` / `down`
 * so publishers and consumers can follow. Heartbeats detect a dead TCP peer.
 */
export class BrokerConnection extends EventEmitter {
  private session: BrokerSession | null = null;
  private generation = 0;
  private closing = false;
  private timer: NodeJS.Timeout | null = null;
  private attempt = 0;
  /** a cluster's nodes; every connect goes to `urls[next]`, and a failed or lost node moves it on */
  private readonly urls: readonly string[];
  private next = 0;

  constructor(private readonly opts: BrokerConnectionOptions) {
    super();
    // Every consumer and publisher of a process follows its one connection's up and down: a
    // deliverer has more than Node's default of ten (its queues and the eight ordered partitions).
    // Each is made once per process, so the count is bounded by the code, not by traffic.
    this.setMaxListeners(64);
    this.urls = opts.url
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
  }

  current(): BrokerSession | null {
    return this.session;
  }

  isUp(): boolean {
    return this.session !== null;
  }

  /**
   * Whether a lost connection has somewhere else to go right away: a cluster's other nodes
   * (RABBITMQ_URL lists several). With one node, a lost connection waits for that node.
   */
  get failsOver(): boolean {
    return this.urls.length > 1;
  }

  /** Starts connecting; resolves after the first successful connect or rejects after `timeoutMs`. */
  async start(timeoutMs = 30000): Promise<void> {
    this.connectLoop();
    if (this.session) return;
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => {
        this.off('up', onUp);
        reject(new Error(`broker not reachable within ${timeoutMs} ms`));
      }, timeoutMs);
      const onUp = (): void => {
        clearTimeout(t);
        resolve();
      };
      this.once('up', onUp);
    });
  }

  /** Opens an extra channel on the current connection (consumers use their own). */
  async openChannel(): Promise<Channel> {
    if (!this.session) throw new Error('broker not connected');
    return this.session.connection.createChannel();
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    const s = this.session;
    this.session = null;
    if (s) await closeBounded(s.connection);
  }

  private connectLoop(): void {
    if (this.closing || this.timer) return;
    const min = this.opts.reconnectMinMs ?? 200;
    const max = this.opts.reconnectMaxMs ?? 5000;
    const delay = this.attempt === 0 ? 0 : Math.min(max, min * 2 ** Math.min(this.attempt - 1, 10));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connectOnce().catch((err: Error) => {
        this.attempt += 1;
        this.opts.logger.warn('broker connect failed', { error: err.message, attempt: this.attempt, node: this.next });
        this.moveOn();
        this.connectLoop();
      });
    }, delay);
  }

  /**
   * The next node of a cluster. A node that refused or dropped us is likely down; quorum queues
   * live on the others, so the next connect goes there rather than waiting for it to return.
   */
  private moveOn(): void {
    this.next = (this.next + 1) % this.urls.length;
  }

  private async connectOnce(): Promise<void> {
    const connection = await amqp.connect(withHeartbeat(this.urls[this.next]!, this.opts.heartbeatSeconds ?? 10), {
      clientProperties: { connection_name: this.opts.connectionName },
    });
    try {
      const setup = await connection.createChannel();
      await declareTopology(setup, this.opts.topology);
      await setup.close();
      const confirmChannel = await connection.createConfirmChannel();
      // Errors are followed by 'close'; handling 'error' stops them from crashing the process.
      connection.on('error', (err: Error) => this.opts.logger.warn('broker connection error', { error: err.message }));
      confirmChannel.on('error', (err: Error) => this.opts.logger.warn('broker channel error', { error: err.message }));
      const generation = ++this.generation;
      const lost = (): void => this.lost(generation);
      connection.on('close', lost);
      confirmChannel.on('close', lost);
      if (this.closing) {
        await connection.close();
        return;
      }
      this.session = { connection, confirmChannel, generation };
      this.attempt = 0;
      this.opts.logger.info('broker connected', { generation, node: this.next });
      this.emit('up', this.session);
    } catch (err) {
      await connection.close().catch(() => undefined);
      throw err;
    }
  }

  private lost(generation: number): void {
    if (!this.session || this.session.generation !== generation) return;
    const s = this.session;
    this.session = null;
    this.emit('down', s);
    void closeBounded(s.connection);
    if (this.closing) return;
    this.opts.logger.warn('broker connection lost; reconnecting', { generation, node: this.next });
    this.moveOn();
    this.attempt = 1;
    this.connectLoop();
  }
}

/**
 * amqplib reads the heartbeat only from the URL (or its object form), never from the socket
 * options; without it the server's 60 s applies and a dead peer goes unnoticed for two minutes.
 * A heartbeat already in the URL wins.
 */
export function withHeartbeat(url: string, seconds: number): string {
  const u = new URL(url);
  if (!u.searchParams.has('heartbeat')) u.searchParams.set('heartbeat', String(seconds));
  return u.toString();
}

/**
 * `close()` waits for the broker's close-ok, which never comes from a dead or black-holed
 * peer; after `ms` the socket is destroyed so shutdown and reconnects never hang.
 */
async function closeBounded(connection: ChannelModel, ms = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    timer.unref();
  });
  const result = await Promise.race([
    connection.close().then(
      () => 'closed' as const,
      () => 'closed' as const,
    ),
    timedOut,
  ]);
  clearTimeout(timer);
  if (result === 'timeout') {
    // amqplib exposes the socket only on the inner connection object
    const inner = (
      connection as unknown as { connection?: { stream?: { destroy(): void }; heartbeater?: { clear(): void } } }
    ).connection;
    inner?.stream?.destroy();
    // amqplib stops its heartbeat timers only on a close it saw; this one it did not
    inner?.heartbeater?.clear();
  }
}
