import { Cluster, Redis } from 'ioredis';
import type { ClusterOptions, RedisOptions } from 'ioredis';

/**
 * A Redis connection as every adapter sees it: one server, or a Redis Cluster. Both answer the
 * same commands; on a cluster every command, script and MULTI must keep its keys in one hash
 * slot (each adapter's key builder says how it does).
 */
export type RedisClient = Redis | Cluster;

/** How long a cluster client waits before sending again a command whose node went away, or while the cluster has no master for a slot. */
const CLUSTER_RETRY_DELAY_MS = 200;

/**
 * Opens a Redis connection for REDIS_URL: one `redis://` URL is one server; several separated by
 * commas are seed nodes of a Redis Cluster (docs/operations.md "Clustered RabbitMQ and Redis").
 *
 * `options` mean the same on both: a cluster applies them to each node's connection, and its
 * own offline queue and auto-pipelining follow the caller's (without an offline queue a command
 * fails at once while the cluster client has no slot map, as one while disconnected). A command
 * whose node goes away is sent again every CLUSTER_RETRY_DELAY_MS, to the replica promoted in
 * its place once the cluster says so, up to the client's redirection limit (16); a caller's
 * `commandTimeout` still bounds it as a whole (the gateway's limiter then decides per process).
 * The slot map is refreshed on every redirection and every 5 s, so connections follow a
 * failover without a restart; a subscribed connection moves to another node and subscribes again.
 */
export function connectRedis(url: string, options: RedisOptions = {}): RedisClient {
  const urls = url
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  if (urls.length <= 1) return new Redis(urls[0] ?? url, options);
  const seeds = urls.map((u) => new URL(u));
  const first = seeds[0]!;
  const { enableOfflineQueue, enableAutoPipelining, lazyConnect, ...nodeOptions } = options;
  const clusterOptions: ClusterOptions = {
    enableOfflineQueue: enableOfflineQueue ?? true,
    enableAutoPipelining: enableAutoPipelining ?? false,
    lazyConnect: lazyConnect ?? false,
    retryDelayOnFailover: CLUSTER_RETRY_DELAY_MS,
    retryDelayOnClusterDown: CLUSTER_RETRY_DELAY_MS,
    retryDelayOnTryAgain: CLUSTER_RETRY_DELAY_MS,
    slotsRefreshInterval: 5000,
    redisOptions: {
      ...nodeOptions,
      // credentials and TLS of the first seed apply to every node, as in one Redis URL
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
      ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  };
  return new Cluster(
    seeds.map((u) => ({ host: u.hostname, port: Number(u.port || 6379) })),
    clusterOptions,
  );
}
