import { int, oneOf, str, url } from './spec';

/**
 * Variables several services share. Each service composes the fragments it needs into its
 * own spec, so a service never requires a connection string it does not use.
 */
export const commonVars = {
  logLevel: oneOf('LOG_LEVEL', 'winston log level', ['error', 'warn', 'info', 'debug'] as const, { default: 'info' }),
  namespace: str(
    'RELAY_NAMESPACE',
    'prefix of every exchange, queue and Redis key; lets several stacks (or tests) share one broker and Redis',
    { default: 'relay' },
  ),
  shutdownGraceMs: int('SHUTDOWN_GRACE_MS', 'how long SIGTERM waits for in-flight work before closing connections', {
    default: 10000,
    min: 0,
  }),
};

export const rabbitVars = {
  rabbitmqUrl: url(
    'RABBITMQ_URL',
    'AMQP URL of the RabbitMQ broker; for a cluster, one URL per node separated by commas (tried in turn)',
    { default: 'amqp://127.0.0.1:5672', protocols: ['amqp:', 'amqps:'], secret: true, several: true },
  ),
};

export const redisVars = {
  redisUrl: url(
    'REDIS_URL',
    'Redis URL; for a Redis Cluster, the URLs of several of its nodes separated by commas (seeds: the client learns the rest)',
    { default: 'redis://127.0.0.1:6379', protocols: ['redis:', 'rediss:'], secret: true, several: true },
  ),
};

export const mongoVars = {
  mongodbUrl: url('MONGODB_URL', 'MongoDB URL including the database name', {
    default: 'mongodb://127.0.0.1:27017/relay',
    protocols: ['mongodb:', 'mongodb+srv:'],
    secret: true,
  }),
};

/** Read by the activity-writer (which deletes expired rows) and the management API (which lists them). */
export const activityVars = {
  activityRetentionDays: int(
    'ACTIVITY_RETENTION_DAYS',
    'days an activity row is kept; older rows are deleted within the hour',
    { default: 30, min: 1, max: 3650 },
  ),
};

/**
 * Read by the services that serve only health and metrics (the deliverers and the
 * activity-writer): their server listens on HOST, like the gateway's and the API's. Loopback by
 * default, so `/metrics` and `/readyz` are not on every interface of a host; a container sets
 * 0.0.0.0 so its orchestrator's probes reach it (docker-compose.yml does).
 */
export const healthHostVars = {
  host: str(
    'HOST',
    'address the health server (/healthz, /readyz, /metrics) listens on; 0.0.0.0 in a container, so probes and the scraper can reach it',
    { default: '127.0.0.1' },
  ),
};

/**
 * Read by the gateway and the deliverers, whose caches of stored settings keep entries until a
 * change announcement says otherwise (docs/architecture.md "Caches of settings").
 */
export const cacheVars = {
  cacheCheckIntervalMs: int(
    'CACHE_CHECK_INTERVAL_MS',
    'how often the change counter is read and the subscription checked; a missed announcement or a lost subscription is found within two checks',
    { default: 500, min: 50, max: 10000 },
  ),
  cacheSweepIntervalMs: int(
    'CACHE_SWEEP_INTERVAL_MS',
    'every cached setting is revalidated this often even when no announcement was missed (0 = never)',
    { default: 300000, min: 0 },
  ),
  cacheRevalidateBatch: int(
    'CACHE_REVALIDATE_BATCH',
    'cached entries revalidated per store read after announcements may have been missed',
    { default: 200, min: 1, max: 5000 },
  ),
  cacheRevalidatePauseMs: int(
    'CACHE_REVALIDATE_PAUSE_MS',
    'pause between two revalidation reads, so a pass never takes the store whole',
    { default: 10, min: 0, max: 10000 },
  ),
};
