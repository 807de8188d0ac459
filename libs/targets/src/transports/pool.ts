import { createHash } from 'node:crypto';

/**
 * Clients that hold a connection, one per key (a target and its settings), for kinds whose
 * destination is a broker or a server rather than one HTTP request: opened on first use, reused
 * while healthy, replaced when not, closed when their target is changed or deleted (`release`),
 * when idle for `idleMs` and, past `maxClients`, the least recently used first (docs/decisions/0025-queue-destination-kinds.md). Opening is shared:
 * concurrent attempts for one key wait on the same connection, so a broker that is down costs
 * one connection attempt per key at a time, not one per delivery.
 */
/** What every link of pooled clients has: its clients' count, and closing them all or a target's. */
export interface PooledLink {
  readonly size: number;
  /** closes the clients of a target, or of every target of an endpoint (ClientPool.release) */
  release(id: string): void;
  close(): void;
}

/** What every pooled link to targets' servers is built with (the outputs deliverer's settings). */
export interface PooledLinkOptions {
  /** CIDRs exempt from the SSRF guard, as for every outbound delivery (SSRF_ALLOW_CIDRS) */
  allowCidrs: readonly string[];
  connectTimeoutMs: number;
  /** one command's or publish's answer, after which the attempt is a retry */
  commandTimeoutMs: number;
  /** clients (target servers) held open by one process */
  maxClients: number;
  idleMs: number;
}

export interface ClientPoolOptions<C> {
  /** whether a client may still be used; an unhealthy one is closed and opened again */
  healthy(client: C): boolean;
  close(client: C): void;
  maxClients: number;
  idleMs: number;
}

/** The target a pooled client serves, under its endpoint: a change announced for either closes it. */
export interface PoolOwner {
  endpointId: string;
  targetId: string;
}

/** The owner of a delivery's client. */
export const ownerOf = (d: { endpoint_id: string; target_id: string }): PoolOwner => ({
  endpointId: d.endpoint_id,
  targetId: d.target_id,
});

/**
 * A pool key of the owner's own: each target has its clients (one target's broker in trouble
 * never holds another's connection), under a digest of what the connection depends on, so the
 * pool holds no URL or secret in clear.
 */
export function ownedKey(owner: PoolOwner, identity: string): string {
  return `${owner.targetId}:${createHash('sha256').update(identity).digest('base64url')}`;
}

interface Held<C> {
  client: Promise<C>;
  usedAt: number;
  owner: PoolOwner | undefined;
}

export class ClientPool<C> {
  private readonly held = new Map<string, Held<C>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly opts: ClientPoolOptions<C>) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, opts.idleMs / 2));
    this.sweeper.unref();
  }

  /** the key's client, opened with `open` (or reopened when unhealthy); rejects when it cannot be opened */
  async get(key: string, open: () => Promise<C>, owner?: PoolOwner): Promise<C> {
    return (await this.acquire(key, open, owner)).client;
  }

  /** closes the clients of a target, or of every target of an endpoint, at once: it was changed or deleted */
  release(id: string): void {
    for (const [key, h] of [...this.held])
      if (h.owner?.targetId === id || h.owner?.endpointId === id) this.drop(key, h);
  }

  /** closes the key's client (after an error that leaves its connection in doubt) */
  discard(key: string): void {
    const found = this.held.get(key);
    if (found) this.drop(key, found);
  }

  /**
   * One attempt on the key's client: opened or shared as `get` does (rejecting when it cannot be
   * opened), given to `run`, and closed after it when it is no longer healthy or `run` threw an
   * error that `inDoubt` says leaves its connection uncertain (a timeout, a reset; not a server's
   * answer). A successor another attempt opened meanwhile is left alone.
   */
  async use<R>(
    key: string,
    open: () => Promise<C>,
    owner: PoolOwner,
    run: (client: C) => Promise<R>,
    inDoubt: (err: unknown) => boolean = () => true,
  ): Promise<R> {
    const { client, h } = await this.acquire(key, open, owner);
    let doubt = false;
    try {
      return await run(client);
    } catch (err) {
      doubt = inDoubt(err);
      throw err;
    } finally {
      if ((doubt || !this.opts.healthy(client)) && this.held.get(key) === h) this.drop(key, h);
    }
  }

  /** A link of its own methods, whose `size`, `release` and `close` are the pool's. */
  link<L extends PooledLink>(methods: Omit<L, keyof PooledLink>): L {
    return Object.defineProperties(methods, {
      size: { get: () => this.size, enumerable: true },
      release: { value: (id: string) => this.release(id), enumerable: true },
      close: { value: () => this.close(), enumerable: true },
    }) as L;
  }

  get size(): number {
    return this.held.size;
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const [key, h] of [...this.held]) this.drop(key, h);
  }

  /** the key's client and the entry holding it */
  private async acquire(
    key: string,
    open: () => Promise<C>,
    owner: PoolOwner | undefined,
  ): Promise<{ client: C; h: Held<C> }> {
    const found = this.held.get(key);
    if (found) {
      found.usedAt = Date.now();
      // most recently used last: Map keeps insertion order, so eviction takes the first
      this.held.delete(key);
      this.held.set(key, found);
      const client = await found.client;
      if (this.opts.healthy(client)) return { client, h: found };
      if (this.held.get(key) === found) this.drop(key, found);
      // another attempt that found it unhealthy too has opened its successor: share that one
      const successor = this.held.get(key);
      if (successor) return { client: await successor.client, h: successor };
    }
    const h = this.openHeld(key, open, owner);
    return { client: await h.client, h };
  }

  private openHeld(key: string, open: () => Promise<C>, owner: PoolOwner | undefined): Held<C> {
    while (this.held.size >= this.opts.maxClients) {
      const [oldest, h] = this.held.entries().next().value as [string, Held<C>];
      this.drop(oldest, h);
    }
    const client = open();
    const h: Held<C> = { client, usedAt: Date.now(), owner };
    this.held.set(key, h);
    // a failed open is not kept: the next attempt opens again
    client.catch(() => {
      if (this.held.get(key) === h) this.held.delete(key);
    });
    return h;
  }

  private drop(key: string, h: Held<C>): void {
    if (this.held.get(key) === h) this.held.delete(key);
    h.client.then(
      (c) => this.opts.close(c),
      () => undefined,
    );
  }

  private sweep(): void {
    const before = Date.now() - this.opts.idleMs;
    for (const [key, h] of [...this.held]) if (h.usedAt < before) this.drop(key, h);
  }
}
