import { Redis } from 'ioredis';
import { createAddressPolicy } from '../../ssrf';
import type { AddressPolicy } from '../../ssrf';
import { addressOf } from '../address';
import { ClientPool, ownedKey } from '../pool';
import type { PooledLink, PooledLinkOptions, PoolOwner } from '../pool';

/** One entry to append: `XADD stream [MAXLEN ~ n] * field value …`. */
export interface StreamEntry {
  stream: string;
  /** 0: not trimmed */
  maxLength: number;
  fields: ReadonlyArray<readonly [string, string | Buffer]>;
}

/** What an append came to: the entry's id, or the server's error word (`WRONGPASS`) or the socket's code (`ECONNREFUSED`). */
export type AppendOutcome = { id: string } | { error: { code: string; message: string } };

/** The outputs deliverer's route to Redis servers of Redis Streams targets. */
export interface RedisStreamsLink extends PooledLink {
  /** appends through the owner's client of `url` (the plaintext URL, held only in memory) */
  append(owner: PoolOwner, url: string, entry: StreamEntry): Promise<AppendOutcome>;
}

/** Redis server errors start with an upper-case word (`WRONGPASS invalid username-password pair`). */
const REPLY_WORD = /^([A-Z][A-Z_]+)\b/;

/** An error's code: the server's word, the socket's code, or a word of Relay's own for ioredis' messages. */
export function redisErrorCode(err: unknown): string {
  const e = err as { name?: string; code?: unknown; message?: string };
  const message = String(e?.message ?? err);
  if (e?.name === 'ReplyError') return REPLY_WORD.exec(message)?.[1] ?? 'ERR';
  if (typeof e?.code === 'string') return e.code;
  if (/timed out|timeout/i.test(message)) return 'ETIMEDOUT';
  if (/Connection is closed|Stream isn't writeable/i.test(message)) return 'ECONNCLOSED';
  return 'EREDIS';
}

async function connect(rawUrl: string, policy: AddressPolicy, opts: PooledLinkOptions): Promise<Redis> {
  const url = new URL(rawUrl);
  const host = await addressOf(url.hostname, policy);
  const client = new Redis({
    host,
    port: url.port === '' ? 6379 : Number(url.port),
    ...(url.username !== '' ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password !== '' ? { password: decodeURIComponent(url.password) } : {}),
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
    // certificates are verified against the URL's host name, not the address dialled
    ...(url.protocol === 'rediss:' ? { tls: { servername: url.hostname, rejectUnauthorized: true } } : {}),
    lazyConnect: true,
    connectTimeout: opts.connectTimeoutMs,
    commandTimeout: opts.commandTimeoutMs,
    // no reconnecting and no queueing inside the client: an attempt fails at once and is retried
    // on the target's schedule, and the pool opens a fresh client for the next attempt
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectionName: 'relay-deliverer',
  });
  // the first error while connecting says why (WRONGPASS, ECONNREFUSED); ioredis' own rejection
  // only says the connection closed. Later errors reach the attempt that sees them, and an
  // unhandled 'error' event must not end the process.
  let first: unknown;
  client.on('error', (err) => (first ??= err));
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw first ?? err;
  }
  if (first !== undefined) {
    // a refused SELECT leaves a ready client on database 0: never append there instead
    client.disconnect();
    throw first;
  }
  return client;
}

/**
 * Pooled clients to the Redis servers of Redis Streams targets, keyed by a digest of the URL: a
 * changed URL gets a client of its own and the old one idles out, and the pool holds no URL.
 */
export function createRedisStreamsLink(opts: PooledLinkOptions): RedisStreamsLink {
  const policy = createAddressPolicy({ allowCidrs: opts.allowCidrs });
  const pool = new ClientPool<Redis>({
    healthy: (c) => c.status === 'ready',
    close: (c) => c.disconnect(),
    maxClients: opts.maxClients,
    idleMs: opts.idleMs,
  });
  return pool.link<RedisStreamsLink>({
    async append(owner, url, entry) {
      const trim: Array<string | number> = entry.maxLength > 0 ? ['MAXLEN', '~', entry.maxLength] : [];
      try {
        const id = await pool.use(
          ownedKey(owner, url),
          () => connect(url, policy, opts),
          owner,
          (client) => client.xadd(entry.stream, ...trim, '*', ...entry.fields.flat()),
          // a timeout or a reset leaves the connection in doubt; a server's reply does not
          (err) => (err as Error)?.name !== 'ReplyError',
        );
        return { id: id ?? '' };
      } catch (err) {
        return { error: { code: redisErrorCode(err), message: String((err as Error)?.message ?? err) } };
      }
    },
  });
}
