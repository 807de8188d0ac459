import { ClientPool } from '../pool';
import type { PooledLink, PooledLinkOptions, PoolOwner } from '../pool';
import { awsFailure, poolKey } from './client';
import type { AwsAccess, AwsFailure } from './client';

/** AWS SDK clients of one service, pooled per target: `call` runs one request on the target's client. */
export interface AwsClients<C, A extends AwsAccess> extends PooledLink {
  /** what `use` returned, or why the request failed */
  call<T>(owner: PoolOwner, access: A, use: (client: C) => Promise<T>): Promise<T | { error: AwsFailure }>;
}

/**
 * Clients of one AWS-style service, one per target's access (endpoint, region, keys and what
 * `keyOf` adds), keyed by their digest so the pool holds no secret in clear. A client is plain
 * HTTP(S) with keep-alive: it stays usable after any answer, and a failure without one (a reset,
 * a timeout) closes it so the next attempt dials afresh.
 */
export function pooledAwsClients<C extends { destroy(): void }, A extends AwsAccess>(
  opts: PooledLinkOptions,
  open: (access: A) => C,
  keyOf: (access: A) => unknown[] = () => [],
): AwsClients<C, A> {
  const pool = new ClientPool<C>({
    healthy: () => true,
    close: (c) => c.destroy(),
    maxClients: opts.maxClients,
    idleMs: opts.idleMs,
  });
  return pool.link<AwsClients<C, A>>({
    async call(owner, access, use) {
      // the owner's own client, keyed by a digest of its access (no secret in clear)
      const key = `${owner.targetId}:${poolKey(access, ...keyOf(access))}`;
      try {
        // a failure without an answer (a reset, a timeout) leaves the connection in doubt
        return await pool.use(
          key,
          () => Promise.resolve(open(access)),
          owner,
          use,
          (err) => awsFailure(err).status === undefined,
        );
      } catch (err) {
        return { error: awsFailure(err) };
      }
    },
  });
}
