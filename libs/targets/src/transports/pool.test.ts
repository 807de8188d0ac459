import { ClientPool, ownedKey } from './pool';

interface FakeClient {
  n: number;
  ok: boolean;
  closed: boolean;
}

function poolOf(opts: { maxClients?: number; idleMs?: number } = {}) {
  let opened = 0;
  const pool = new ClientPool<FakeClient>({
    healthy: (c) => c.ok,
    close: (c) => void (c.closed = true),
    maxClients: opts.maxClients ?? 4,
    idleMs: opts.idleMs ?? 60_000,
  });
  const open = () => Promise.resolve({ n: ++opened, ok: true, closed: false });
  return { pool, open, opened: () => opened };
}

describe('a pool of connection-holding clients, one per target', () => {
  afterEach(() => jest.useRealTimers());

  it('concurrent attempts for one target share one connection', async () => {
    const { pool, open, opened } = poolOf();
    const [a, b] = await Promise.all([pool.get('t1', open), pool.get('t1', open)]);
    expect(a).toBe(b);
    expect(opened()).toBe(1);
    pool.close();
  });

  it('an unhealthy client is closed and replaced on the next use', async () => {
    const { pool, open } = poolOf();
    const first = await pool.get('t1', open);
    first.ok = false;
    const second = await pool.get('t1', open);
    expect(second.n).toBe(2);
    expect(first.closed).toBe(true);
    pool.close();
  });

  it('attempts that find a client unhealthy at once share one successor; none is left open unheld', async () => {
    const { pool, open, opened } = poolOf();
    const first = await pool.get('t1', open);
    first.ok = false;
    const [a, b, c] = await Promise.all([pool.get('t1', open), pool.get('t1', open), pool.get('t1', open)]);
    expect(new Set([a, b, c]).size).toBe(1);
    expect(opened()).toBe(2);
    expect(pool.size).toBe(1);
    pool.close();
  });

  it('a failed open is not kept: the next attempt opens again', async () => {
    const { pool, open } = poolOf();
    await expect(pool.get('t1', () => Promise.reject(new Error('ECONNREFUSED')))).rejects.toThrow('ECONNREFUSED');
    expect(pool.size).toBe(0);
    expect((await pool.get('t1', open)).n).toBe(1);
    pool.close();
  });

  it('past maxClients the least recently used client is closed', async () => {
    const { pool, open } = poolOf({ maxClients: 2 });
    const a = await pool.get('a', open);
    const b = await pool.get('b', open);
    await pool.get('a', open);
    await pool.get('c', open);
    expect(b.closed).toBe(true);
    expect(a.closed).toBe(false);
    expect(pool.size).toBe(2);
    pool.close();
  });

  it('a client unused for idleMs is closed', async () => {
    jest.useFakeTimers();
    const { pool, open } = poolOf({ idleMs: 10_000 });
    const idle = await pool.get('deleted', open);
    jest.advanceTimersByTime(6_000);
    const busy = await pool.get('busy', open);
    // swept every idleMs / 2: closed within one and a half idleMs of its last use
    jest.advanceTimersByTime(9_000);
    await new Promise(jest.requireActual('node:timers').setImmediate);
    expect(idle.closed).toBe(true);
    expect(busy.closed).toBe(false);
    expect(pool.size).toBe(1);
    pool.close();
    await new Promise(jest.requireActual('node:timers').setImmediate);
    expect(busy.closed).toBe(true);
  });

  it('release closes a changed or deleted target’s clients at once, or every client of an endpoint’s targets', async () => {
    const { pool, open } = poolOf();
    const a = { endpointId: 'ep_1', targetId: 'tg_a' };
    const b = { endpointId: 'ep_1', targetId: 'tg_b' };
    const c = { endpointId: 'ep_2', targetId: 'tg_c' };
    const [ca, cb, cc] = await Promise.all(
      [a, b, c].map((owner) => pool.get(ownedKey(owner, 'redis://h:6379'), open, owner)),
    );
    pool.release('tg_a');
    await new Promise(setImmediate);
    expect([ca!.closed, cb!.closed, cc!.closed]).toEqual([true, false, false]);
    pool.release('ep_1');
    await new Promise(setImmediate);
    expect([cb!.closed, cc!.closed]).toEqual([true, false]);
    expect(pool.size).toBe(1);
    pool.close();
  });

  it('two targets on one server have a client each: the key is the target’s, no URL in it', () => {
    const url = 'redis://:secret@h:6379';
    const one = ownedKey({ endpointId: 'ep_1', targetId: 'tg_a' }, url);
    expect(one).not.toBe(ownedKey({ endpointId: 'ep_1', targetId: 'tg_b' }, url));
    expect(one).not.toContain('secret');
    expect(one.startsWith('tg_a:')).toBe(true);
  });
  it('use: an error that leaves the connection in doubt closes the client; a server’s answer does not', async () => {
    const { pool, open, opened } = poolOf();
    const owner = { endpointId: 'ep_1', targetId: 'tg_a' };
    const inDoubt = (err: unknown) => (err as Error).message !== 'ERR wrong type';
    let first: FakeClient | undefined;
    const answer = pool.use(
      't1',
      open,
      owner,
      async (c) => {
        first = c;
        throw new Error('ERR wrong type');
      },
      inDoubt,
    );
    await expect(answer).rejects.toThrow('ERR wrong type');
    expect([first!.closed, pool.size]).toEqual([false, 1]);
    const reset = pool.use('t1', open, owner, async () => Promise.reject(new Error('ECONNRESET')), inDoubt);
    await expect(reset).rejects.toThrow('ECONNRESET');
    await new Promise(setImmediate);
    expect([first!.closed, pool.size]).toEqual([true, 0]);
    expect(await pool.use('t1', open, owner, async (c) => c.n)).toBe(2);
    expect(opened()).toBe(2);
    pool.close();
  });

  it('use: a client its attempt left unhealthy is closed after it, and a successor opened meanwhile is kept', async () => {
    const { pool, open } = poolOf();
    const owner = { endpointId: 'ep_1', targetId: 'tg_a' };
    let successor: FakeClient | undefined;
    const first = await pool.use('t1', open, owner, async (c) => {
      c.ok = false;
      // another attempt finds it unhealthy and opens the successor while this one is at work
      successor = await pool.get('t1', open, owner);
      return c;
    });
    await new Promise(setImmediate);
    expect([first.closed, successor!.closed, successor!.n, pool.size]).toEqual([true, false, 2, 1]);
    pool.close();
  });

  it('link: a link’s size, release and close are its pool’s', async () => {
    const { pool, open } = poolOf();
    const link = pool.link<{ size: number; release(id: string): void; close(): void; ping(): string }>({
      ping: () => 'pong',
    });
    const owner = { endpointId: 'ep_1', targetId: 'tg_a' };
    const client = await pool.get('t1', open, owner);
    expect([link.ping(), link.size]).toEqual(['pong', 1]);
    link.release('tg_a');
    await new Promise(setImmediate);
    expect([client.closed, link.size]).toEqual([true, 0]);
    link.close();
  });
});
