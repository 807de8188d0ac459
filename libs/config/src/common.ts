import { int, list, oneOf, str, url } from './spec';

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

/**
 * The operator's mail relay: the deliverer's outputs channel sends email targets through it, the
 * management API its member invitations.
 */
export const smtpVars = {
  smtpHost: str(
    'SMTP_HOST',
    "the operator's outbound mail relay for email targets and member invitations; empty = email deliveries wait (retry) and invitations are refused until one is set",
    { default: '' },
  ),
  smtpPort: int('SMTP_PORT', 'port of the mail relay (587 submission with STARTTLS, 465 implicit TLS)', {
    default: 587,
    min: 1,
    max: 65535,
  }),
  smtpSecurity: oneOf(
    'SMTP_SECURITY',
    'starttls: STARTTLS required (default); tls: implicit TLS; none: no TLS, only for a catcher on loopback',
    ['starttls', 'tls', 'none'] as const,
    { default: 'starttls' },
  ),
  smtpUsername: str('SMTP_USERNAME', 'AUTH user at the mail relay; empty = no AUTH', { default: '' }),
  smtpPassword: str('SMTP_PASSWORD', 'AUTH password at the mail relay', { default: '', secret: true }),
  smtpFrom: str(
    'SMTP_FROM',
    'envelope sender and From address of every email, e.g. relay@example.com (required with SMTP_HOST)',
    { default: '' },
  ),
  smtpCaFile: str(
    'SMTP_CA_FILE',
    'PEM file of extra trust anchors for a relay whose certificate a private CA issued; empty = the system CAs',
    { default: '' },
  ),
  smtpConnectTimeoutMs: int(
    'SMTP_CONNECT_TIMEOUT_MS',
    'TCP connect and the 220 greeting must each finish within this',
    { default: 10_000, min: 100 },
  ),
  smtpSocketTimeoutMs: int(
    'SMTP_SOCKET_TIMEOUT_MS',
    'no byte from the relay for this long ends the attempt (retried)',
    { default: 30_000, min: 100 },
  ),
  smtpMaxConnections: int('SMTP_MAX_CONNECTIONS', 'connections kept open to the mail relay per process', {
    default: 4,
    min: 1,
    max: 100,
  }),
};

/** The SSRF guard of every outbound request to an address an account chose (targets, identity providers). */
export const ssrfVars = {
  ssrfAllowCidrs: list(
    'SSRF_ALLOW_CIDRS',
    'CIDRs exempt from the SSRF guard (e.g. 127.0.0.0/8 for local receivers, captcha verifiers and identity providers); empty = none',
    { default: [] },
  ),
};
