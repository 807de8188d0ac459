import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { freePort } from './services';

/**
 * Private Redis, RabbitMQ and FerretDB processes for one test file, on free loopback ports,
 * with their data in a temporary directory: for tests that stop and restart the servers
 * themselves (the chaos suite), which must never touch the shared ones other test runs use.
 * The programs are the ones scripts/infra.sh installs and builds (`bash scripts/infra.sh
 * tools`): Debian's redis-server and rabbitmq-server, and FerretDB at <repo>/.infra/bin/ferretdb
 * (FERRETDB_BIN overrides). FerretDB runs on its PostgreSQL backend, the store `npm start` runs,
 * in a database of its own in the PostgreSQL cluster `bash scripts/infra.sh up` runs (restarting
 * the store means restarting FerretDB; PostgreSQL is never stopped). Not on SQLite: FerretDB 1.24
 * on SQLite acknowledged inserts whose rows a SIGTERM restart then lost (docs/reliability.md).
 *
 * Every server is a process group of its own: `stop('SIGTERM')` is the orderly shutdown an
 * operator's restart does, `stop('SIGKILL')` a crash of the whole group. `close()` kills all and
 * removes the directory (discardServers); a test process that exits without it still kills the groups.
 */
const ROOT = path.resolve(__dirname, '../..');
const RABBIT_BIN = '/usr/lib/rabbitmq/bin';
/** a handshake (Redis PING, an AMQP channel, a MongoDB ping) must come within this once the server is up */
const HANDSHAKE_TIMEOUT_MS = 2000;
/** an orderly stop that takes longer than this becomes a SIGKILL */
const STOP_GRACE_MS = 30000;

export type ServerName =
  'redis' | 'rabbitmq' | 'ferretdb' | 'mosquitto' | 'nats' | 'elasticmq' | 'moto' | 'versitygw' | 'kafka';

export interface PrivateServer {
  readonly name: ServerName;
  /** the URL clients use; stays the same across restarts */
  readonly url: string;
  /**
   * Starts the process and resolves once it completed a protocol handshake (rejects after
   * `timeoutMs`), with the time that handshake began: the server answered from then at the latest.
   */
  start(timeoutMs?: number): Promise<number>;
  /** SIGTERM: orderly shutdown, resolved once the process exited; SIGKILL: the whole process group at once */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** one handshake attempt: true if the server answers now */
  answers(): Promise<boolean>;
  running(): boolean;
  /** where the server's stdout and stderr go */
  readonly logFile: string;
}

export interface PrivateServers {
  redis: PrivateServer;
  rabbitmq: PrivateServer;
  ferretdb: PrivateServer;
  dir: string;
  /** FerretDB's database in the shared PostgreSQL cluster (dropped by `close()` unless PRIVATE_SERVERS_KEEP) */
  storeDatabase: string;
  /** base URLs for services: REDIS_URL, RABBITMQ_URL, and MONGODB_URL with `database` */
  env(database: string): { REDIS_URL: string; RABBITMQ_URL: string; MONGODB_URL: string };
  close(): Promise<void>;
}

export interface Spec {
  name: ServerName | 'epmd';
  url: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  handshake(url: string): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;
/** last resort for a test process that ends without close(): no server outlives it */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) killGroup(child, 'SIGKILL');
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export class ManagedServer {
  private child: ChildProcess | null = null;
  readonly name: Spec['name'];
  readonly url: string;

  constructor(
    private readonly spec: Spec,
    readonly logFile: string,
  ) {
    this.name = spec.name;
    this.url = spec.url;
  }

  running(): boolean {
    return this.child !== null && !exited(this.child);
  }

  async start(timeoutMs = 60000): Promise<number> {
    if (this.running()) throw new Error(`${this.name} is already running`);
    installExitHook();
    const log = openSync(this.logFile, 'a');
    // detached: a process group of its own, so a SIGKILL reaches every process of the server
    const child = spawn(this.spec.command, this.spec.args, {
      env: this.spec.env,
      stdio: ['ignore', log, log],
      detached: true,
    });
    closeSync(log);
    this.child = child;
    live.add(child);
    child.once('exit', () => live.delete(child));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (exited(child))
        throw new Error(
          `${this.name} exited (${child.exitCode ?? child.signalCode}) before it answered; last lines of ${this.logFile}:\n${tail(this.logFile)}`,
        );
      const tried = Date.now();
      if (await this.answers()) return tried;
      if (Date.now() > deadline) {
        killGroup(child, 'SIGKILL');
        throw new Error(
          `${this.name} did not answer within ${timeoutMs} ms; last lines of ${this.logFile}:\n${tail(this.logFile)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async answers(): Promise<boolean> {
    try {
      await withTimeout(this.spec.handshake(this.url), HANDSHAKE_TIMEOUT_MS + 500, this.name);
      return true;
    } catch {
      return false;
    }
  }

  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || exited(child)) return;
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (signal === 'SIGKILL') killGroup(child, 'SIGKILL');
    else child.kill('SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_GRACE_MS);
    await done;
    clearTimeout(timer);
  }
}

async function redisHandshake(url: string): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: HANDSHAKE_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    if ((await client.ping()) !== 'PONG') throw new Error('no PONG');
  } finally {
    client.disconnect();
  }
}

async function amqpHandshake(url: string): Promise<void> {
  const conn = await amqp.connect(url, { timeout: HANDSHAKE_TIMEOUT_MS });
  conn.on('error', () => undefined);
  try {
    await (await conn.createChannel()).close();
  } finally {
    await conn.close().catch(() => undefined);
  }
}

async function mongoHandshake(url: string): Promise<void> {
  const client = new mongoose.mongo.MongoClient(url, {
    serverSelectionTimeoutMS: HANDSHAKE_TIMEOUT_MS,
    connectTimeoutMS: HANDSHAKE_TIMEOUT_MS,
  });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The PostgreSQL cluster scripts/infra.sh runs for FerretDB (trust auth on loopback). */
const PG_PORT = Number(process.env.RELAY_POSTGRES_PORT || 5433);

function psql(bin: string, database: string, args: string[]): void {
  const r = spawnSync(
    bin,
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(PG_PORT),
      '-U',
      'postgres',
      '-d',
      database,
      '-v',
      'ON_ERROR_STOP=1',
      '-q',
      ...args,
    ],
    { encoding: 'utf8', timeout: 60000 },
  );
  if (r.status !== 0)
    throw new Error(
      `psql on 127.0.0.1:${PG_PORT} failed (is PostgreSQL up? \`bash scripts/infra.sh up\` starts it): ${(r.stderr || r.error?.message || '').trim()}`,
    );
}

/** A PostgreSQL database of its own for a private FerretDB, with the settings infra.sh gives the shared one. */
function createStoreDatabase(psqlBin: string, name: string): void {
  psql(psqlBin, 'postgres', ['-c', `CREATE DATABASE "${name}"`]);
  try {
    psql(psqlBin, name, ['-f', path.join(ROOT, 'scripts', 'ferretdb-postgres.sql')]);
  } catch (err) {
    dropStoreDatabase(psqlBin, name);
    throw err;
  }
}

function dropStoreDatabase(psqlBin: string, name: string): void {
  psql(psqlBin, 'postgres', ['-c', `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`]);
}

/** The FerretDB binary scripts/infra.sh builds (`bash scripts/infra.sh tools`), or FERRETDB_BIN. */
export function ferretdbBinary(): string {
  const bin = process.env.FERRETDB_BIN || path.join(ROOT, '.infra', 'bin', 'ferretdb');
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    throw new Error(
      `FerretDB binary not found at ${bin}: run \`bash scripts/infra.sh tools\` (it builds it there) or set FERRETDB_BIN`,
    );
  }
  return bin;
}

function checkProgram(file: string): void {
  try {
    accessSync(file, constants.X_OK);
  } catch {
    throw new Error(`${file} not found: run \`bash scripts/infra.sh tools\` to install it`);
  }
}

/** Starts a private Redis, RabbitMQ node and FerretDB, in parallel; on any failure stops what started. */
export async function startPrivateServers(label: string): Promise<PrivateServers> {
  const redisServer = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (!redisServer) throw new Error('redis-server not found: run `bash scripts/infra.sh tools` to install it');
  checkProgram(path.join(RABBIT_BIN, 'rabbitmq-server'));
  const ferretdb = ferretdbBinary();
  const epmd = spawnSync('sh', ['-c', 'command -v epmd'], { encoding: 'utf8' }).stdout.trim();
  if (!epmd)
    throw new Error("epmd not found (it comes with rabbitmq-server's Erlang): run `bash scripts/infra.sh tools`");
  const psqlBin = spawnSync('sh', ['-c', 'command -v psql || ls /usr/lib/postgresql/*/bin/psql | tail -1'], {
    encoding: 'utf8',
  }).stdout.trim();
  if (!psqlBin) throw new Error('psql not found: run `bash scripts/infra.sh tools` to install PostgreSQL');

  const dir = mkdtempSync(path.join(tmpdir(), `relay-${label}-`));
  const [redisPort, amqpPort, distPort, epmdPort, mongoPort, ferretDebugPort] = await distinctFreePorts(6);
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };

  const redis = redisServerIn(redisServer, dir, redisPort, base);

  const { epmdServer, rabbitmq } = rabbitServersIn(epmd, dir, label, { amqpPort, distPort, epmdPort }, base);

  mkdirSync(path.join(dir, 'ferretdb'), { recursive: true });
  const storeDatabase = `ferretdb_${path
    .basename(dir)
    .replace(/[^a-zA-Z0-9]/g, '_')
    .toLowerCase()}`;
  try {
    createStoreDatabase(psqlBin, storeDatabase);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const ferret = new ManagedServer(
    {
      name: 'ferretdb',
      url: `mongodb://127.0.0.1:${mongoPort}`,
      command: ferretdb,
      args: [
        '--handler=postgresql',
        // as infra.sh: an `update` command holds a pooled connection per statement
        `--postgresql-url=postgres://postgres@127.0.0.1:${PG_PORT}/${storeDatabase}?pool_max_conns=64`,
        `--state-dir=${path.join(dir, 'ferretdb')}`,
        `--listen-addr=127.0.0.1:${mongoPort}`,
        `--debug-addr=127.0.0.1:${ferretDebugPort}`,
        '--telemetry=disable',
        // at warn, FerretDB logs every client's unsupported `endSessions`
        '--log-level=error',
      ],
      // as infra.sh (its comment says why)
      env: { ...base, GOGC: '1000', GOMEMLIMIT: '1GiB' },
      handshake: mongoHandshake,
    },
    path.join(dir, 'ferretdb.log'),
  );

  let closed = false;
  const servers: PrivateServers = {
    redis: redis as PrivateServer,
    rabbitmq: rabbitmq as PrivateServer,
    ferretdb: ferret as PrivateServer,
    dir,
    storeDatabase,
    env: (database) => ({ REDIS_URL: redis.url, RABBITMQ_URL: rabbitmq.url, MONGODB_URL: `${ferret.url}/${database}` }),
    async close() {
      if (closed) return;
      closed = true;
      await discardServers(dir, redis, rabbitmq, ferret, epmdServer);
      if (!process.env.PRIVATE_SERVERS_KEEP) dropStoreDatabase(psqlBin, storeDatabase);
    },
  };
  try {
    await epmdServer.start(10000);
    // RabbitMQ takes seconds to boot: the others start meanwhile
    await Promise.all([rabbitmq.start(120000), redis.start(20000), ferret.start(30000)]);
  } catch (err) {
    await servers.close();
    throw err;
  }
  return servers;
}

/**
 * A RabbitMQ node of its own in `dir`, and the Erlang port mapper it registers with: its own
 * name, ports and cookie, no plugins, and none of /etc/rabbitmq's files. The management plugin is
 * off: nothing here reads it. Start epmd first.
 */
function rabbitServersIn(
  epmd: string,
  dir: string,
  label: string,
  ports: { amqpPort: number; distPort: number; epmdPort: number },
  base: Record<string, string>,
): { epmdServer: ManagedServer; rabbitmq: ManagedServer } {
  const { amqpPort, distPort, epmdPort } = ports;
  const rabbitDir = path.join(dir, 'rabbitmq');
  mkdirSync(rabbitDir);
  writeFileSync(path.join(rabbitDir, 'enabled_plugins'), '[].\n');
  writeFileSync(path.join(rabbitDir, 'rabbitmq.conf'), '');
  writeFileSync(path.join(rabbitDir, 'rabbitmq-env.conf'), '');
  const erlangEnv = { ...base, HOME: rabbitDir, ERL_EPMD_PORT: String(epmdPort), ERL_EPMD_ADDRESS: '127.0.0.1' };
  const epmdServer = new ManagedServer(
    {
      name: 'epmd',
      url: `epmd://127.0.0.1:${epmdPort}`,
      command: epmd,
      args: ['-port', String(epmdPort), '-address', '127.0.0.1'],
      env: erlangEnv,
      handshake: () => tcpOpen(epmdPort),
    },
    path.join(dir, 'epmd.log'),
  );
  const rabbitmq = new ManagedServer(
    {
      name: 'rabbitmq',
      url: `amqp://127.0.0.1:${amqpPort}`,
      command: path.join(RABBIT_BIN, 'rabbitmq-server'),
      args: [],
      env: {
        ...erlangEnv,
        RABBITMQ_NODENAME: `${label.replace(/[^a-z0-9]/gi, '')}${amqpPort}@localhost`,
        RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
        RABBITMQ_NODE_PORT: String(amqpPort),
        RABBITMQ_DIST_PORT: String(distPort),
        RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
        RABBITMQ_MNESIA_BASE: path.join(rabbitDir, 'mnesia'),
        RABBITMQ_LOG_BASE: path.join(rabbitDir, 'log'),
        RABBITMQ_PID_FILE: path.join(rabbitDir, 'rabbitmq.pid'),
        RABBITMQ_ENABLED_PLUGINS_FILE: path.join(rabbitDir, 'enabled_plugins'),
        RABBITMQ_CONFIG_FILE: path.join(rabbitDir, 'rabbitmq.conf'),
        RABBITMQ_CONF_ENV_FILE: path.join(rabbitDir, 'rabbitmq-env.conf'),
        RABBITMQ_ADVANCED_CONFIG_FILE: path.join(rabbitDir, 'advanced.config'),
      },
      handshake: amqpHandshake,
    },
    path.join(dir, 'rabbitmq.log'),
  );
  return { epmdServer, rabbitmq };
}

/** A Redis process of its own in `dir` on `port`, with the append-only file a restart must not lose. */
function redisServerIn(command: string, dir: string, port: number, env: Record<string, string>): ManagedServer {
  mkdirSync(path.join(dir, 'redis'));
  return new ManagedServer(
    {
      name: 'redis',
      url: `redis://127.0.0.1:${port}`,
      command,
      // the append-only file, fsynced every second and on shutdown, keeps what a restart must not lose (the activity spool)
      args: [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--protected-mode',
        'yes',
        '--dir',
        path.join(dir, 'redis'),
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--daemonize',
        'no',
      ],
      env,
      handshake: redisHandshake,
    },
    path.join(dir, 'redis.log'),
  );
}

/**
 * A private Redis alone, for a test that stops a destination's Redis (a Redis Streams target's):
 * `close()` stops it and removes its directory.
 */
export async function startPrivateRedis(label: string): Promise<PrivateServer & { close(): Promise<void> }> {
  const redisServer = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (!redisServer) throw new Error('redis-server not found: run `bash scripts/infra.sh tools` to install it');
  const dir = mkdtempSync(path.join(tmpdir(), `relay-${label}-`));
  const server = redisServerIn(redisServer, dir, await freePort(), {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
  });
  return startAlone(server, dir);
}

/**
 * Stops servers for good, in order, and removes the directory of their files. They are killed:
 * their files go next, so an orderly shutdown gains nothing (FerretDB takes 3 s, some JVMs
 * longer). With PRIVATE_SERVERS_KEEP they stop in order and the directory stays, whole.
 */
export async function discardServers(dir: string, ...servers: ManagedServer[]): Promise<void> {
  const keep = Boolean(process.env.PRIVATE_SERVERS_KEEP);
  for (const server of servers) await server.stop(keep ? 'SIGTERM' : 'SIGKILL');
  if (!keep) rmSync(dir, { recursive: true, force: true });
}

/** Starts one server whose files are all in `dir`; `close()` stops it and removes the directory. */
export async function startAlone(
  server: ManagedServer,
  dir: string,
): Promise<PrivateServer & { close(): Promise<void> }> {
  const close = (): Promise<void> => discardServers(dir, server);
  try {
    await server.start(20000);
  } catch (err) {
    await close();
    throw err;
  }
  return Object.assign(server as PrivateServer, { close });
}

/**
 * A private RabbitMQ node alone (with its epmd), for a test that stops a destination's broker (a
 * RabbitMQ exchange target's): `close()` stops both and removes the directory.
 */
export async function startPrivateRabbitmq(label: string): Promise<PrivateServer & { close(): Promise<void> }> {
  checkProgram(path.join(RABBIT_BIN, 'rabbitmq-server'));
  const epmd = spawnSync('sh', ['-c', 'command -v epmd'], { encoding: 'utf8' }).stdout.trim();
  if (!epmd)
    throw new Error("epmd not found (it comes with rabbitmq-server's Erlang): run `bash scripts/infra.sh tools`");
  const dir = mkdtempSync(path.join(tmpdir(), `relay-${label}-`));
  const [amqpPort, distPort, epmdPort] = await distinctFreePorts(3);
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };
  const { epmdServer, rabbitmq } = rabbitServersIn(
    epmd,
    dir,
    label,
    { amqpPort: amqpPort!, distPort: distPort!, epmdPort: epmdPort! },
    base,
  );
  const close = (): Promise<void> => discardServers(dir, rabbitmq, epmdServer);
  try {
    await epmdServer.start(10000);
    await rabbitmq.start(120000);
  } catch (err) {
    await close();
    throw err;
  }
  return Object.assign(rabbitmq as PrivateServer, { close });
}

/** The nats-server scripts/infra.sh builds (`bash scripts/infra.sh tools`), or NATS_SERVER_BIN. */
function natsServerBinary(): string {
  const bin = process.env.NATS_SERVER_BIN || path.join(ROOT, '.infra', 'bin', 'nats-server');
  checkProgram(bin);
  return bin;
}

/**
 * A private nats-server with JetStream (store in a temporary directory that survives its
 * restarts), for a NATS JetStream target's tests: `config` is the server's configuration-file
 * text besides the listener and JetStream (its users, say); `handshake` logs in as one of them,
 * and the server is ready once JetStream answers it. `close()` stops it and removes the directory.
 */
export async function startPrivateNats(
  label: string,
  config: string,
  handshake: (url: string) => Promise<void>,
): Promise<PrivateServer & { close(): Promise<void> }> {
  const command = natsServerBinary();
  const dir = mkdtempSync(path.join(tmpdir(), `relay-${label}-`));
  const port = await freePort();
  const storeDir = path.join(dir, 'jetstream');
  writeFileSync(path.join(dir, 'nats.conf'), config);
  const server = new ManagedServer(
    {
      name: 'nats',
      url: `nats://127.0.0.1:${port}`,
      command,
      args: ['-c', path.join(dir, 'nats.conf'), '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
      handshake,
    },
    path.join(dir, 'nats.log'),
  );
  return startAlone(server, dir);
}

async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  for (let tries = 0; ports.size < n && tries < n * 5; tries++) ports.add(await freePort());
  if (ports.size < n) throw new Error(`could not find ${n} distinct free ports`);
  return [...ports];
}

function tcpOpen(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}
