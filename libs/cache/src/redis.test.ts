import { Cluster, Redis } from 'ioredis';
import { connectRedis } from './redis';

// lazyConnect: nothing is opened, only how REDIS_URL is read is checked here (the e2e file
// test/e2e/cluster-redis.test.ts runs the services on a real cluster)
describe('connectRedis: REDIS_URL is one server, or several seeds of a Redis Cluster', () => {
  const opened: { disconnect(): void }[] = [];
  afterAll(() => opened.forEach((c) => c.disconnect()));

  it('one URL opens one server, with the caller options as given', () => {
    const client = connectRedis('redis://127.0.0.1:6379', {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
    });
    opened.push(client);
    expect(client).toBeInstanceOf(Redis);
    expect((client as Redis).options).toMatchObject({ port: 6379, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  });

  it('several URLs open a cluster client: seeds from each, the caller options on every node, the offline queue on the cluster', () => {
    const client = connectRedis('redis://user:s%40cret@127.0.0.1:7101, redis://127.0.0.1:7102,redis://127.0.0.1:7103', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      commandTimeout: 200,
      enableAutoPipelining: true,
    });
    opened.push(client);
    expect(client).toBeInstanceOf(Cluster);
    const cluster = client as Cluster;
    // the seeds (ioredis keeps them in a private field)
    expect((cluster as unknown as { startupNodes: unknown }).startupNodes).toEqual([
      { host: '127.0.0.1', port: 7101 },
      { host: '127.0.0.1', port: 7102 },
      { host: '127.0.0.1', port: 7103 },
    ]);
    expect(cluster.options).toMatchObject({ enableOfflineQueue: false, enableAutoPipelining: true, lazyConnect: true });
    expect(cluster.options.redisOptions).toMatchObject({
      maxRetriesPerRequest: 0,
      commandTimeout: 200,
      username: 'user',
      password: 's@cret',
    });
  });

  it('a cluster of rediss:// seeds speaks TLS to every node', () => {
    const client = connectRedis('rediss://10.0.0.1:6380,rediss://10.0.0.2:6380', { lazyConnect: true });
    opened.push(client);
    expect((client as Cluster).options.redisOptions).toHaveProperty('tls');
  });
});
