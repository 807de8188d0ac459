import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import type { KafkaMessage } from 'kafkajs';
import { eventually } from './infra';
import { distinctFreePorts, ManagedServer } from './private-servers';
import type { PrivateServer } from './private-servers';

/*
 * A single-node Apache Kafka (KRaft: broker and controller in one JVM) for one test file, on free
 * loopback ports, its log directory in a temporary directory that survives a restart. The jars are
 * the ones `bash scripts/infra.sh tools` resolves from Maven Central into
 * <repo>/.infra/tools/kafka-<version>/libs (KAFKA_LIBS overrides). Two listeners: PLAINTEXT, and
 * SASL_PLAINTEXT with PLAIN and one user. Topics are never created automatically: tests create
 * theirs with `createTopic`.
 */

const ROOT = path.resolve(__dirname, '../..');
/** a small heap and a quick start; the serial collector keeps it to one GC thread on a shared machine */
const JVM = ['-Xms128m', '-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true'];

export interface PrivateKafka extends Omit<PrivateServer, 'name'> {
  /** `127.0.0.1:port` of the PLAINTEXT listener */
  readonly broker: string;
  /** `127.0.0.1:port` of the SASL_PLAINTEXT listener (mechanism PLAIN) */
  readonly saslBroker: string;
  readonly user: { username: string; password: string };
  createTopic(topic: string): Promise<void>;
  /** a consumer (a group of its own) of `topic` from its beginning, every record kept */
  consume(topic: string): Promise<TopicReader>;
  close(): Promise<void>;
}

export interface TopicReader {
  readonly got: KafkaMessage[];
  waitFor(n: number, timeoutMs?: number): Promise<KafkaMessage[]>;
  close(): Promise<void>;
}

/** The newest assembled jar directory (infra.sh marks a complete one with `.complete`). */
function kafkaLibs(): string {
  if (process.env.KAFKA_LIBS) return process.env.KAFKA_LIBS;
  const tools = path.join(ROOT, '.infra', 'tools');
  const versions = existsSync(tools)
    ? readdirSync(tools)
        .filter((d) => /^kafka-\d/.test(d) && existsSync(path.join(tools, d, 'libs', '.complete')))
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    : [];
  const newest = versions.pop();
  if (!newest) throw new Error(`no Kafka jars under ${tools}: run \`bash scripts/infra.sh tools\` or set KAFKA_LIBS`);
  return path.join(tools, newest, 'libs');
}

const quiet = { logLevel: logLevel.NOTHING } as const;

async function kafkaHandshake(broker: string): Promise<void> {
  const admin = new Kafka({
    brokers: [broker],
    connectionTimeout: 2000,
    retry: { retries: 0 },
    ...quiet,
  }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

function serverProperties(
  dir: string,
  ports: { plain: number; sasl: number; controller: number },
  user: { username: string; password: string },
): string {
  const { plain, sasl, controller } = ports;
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controller}`,
    `listeners=PLAINTEXT://127.0.0.1:${plain},SASL_PLAINTEXT://127.0.0.1:${sasl},CONTROLLER://127.0.0.1:${controller}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${plain},SASL_PLAINTEXT://127.0.0.1:${sasl}`,
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT',
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'sasl.enabled.mechanisms=PLAIN',
    `listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_${user.username}="${user.password}";`,
    `log.dirs=${path.join(dir, 'data')}`,
    'auto.create.topics.enable=false',
    'num.partitions=1',
    // one partition of each internal topic: a single node starts (and restarts) in seconds
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    'num.network.threads=2',
    'num.io.threads=2',
    'background.threads=2',
    '',
  ].join('\n');
}

/** Formats the log directory and starts the broker; `close()` stops it and removes the directory. */
export async function startPrivateKafka(label: string): Promise<PrivateKafka> {
  const libs = kafkaLibs();
  const dir = mkdtempSync(path.join(tmpdir(), `relay-${label}-`));
  const [plain, sasl, controller] = (await distinctFreePorts(3)) as [number, number, number];
  const user = { username: 'relay', password: randomBytes(12).toString('base64url') };
  const props = path.join(dir, 'server.properties');
  writeFileSync(props, serverProperties(dir, { plain, sasl, controller }, user));
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };
  const java = (main: string, args: string[]): string[] => [
    '-n',
    '19',
    'java',
    ...JVM,
    '-cp',
    `${libs}/*`,
    main,
    ...args,
  ];
  const clusterId = randomBytes(16).toString('base64url');
  const format = spawnSync('nice', java('kafka.tools.StorageTool', ['format', '-t', clusterId, '-c', props]), {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (format.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`kafka-storage format failed: ${(format.stderr || format.error?.message || '').trim()}`);
  }
  const broker = `127.0.0.1:${plain}`;
  const server = new ManagedServer(
    {
      name: 'kafka',
      url: `kafka://${broker}`,
      command: 'nice',
      args: java('kafka.Kafka', [props]),
      env,
      handshake: () => kafkaHandshake(broker),
    },
    path.join(dir, 'kafka.log'),
  );
  const client = new Kafka({ clientId: `e2e-${label}`, brokers: [broker], ...quiet });
  const readers = new Set<TopicReader>();
  const close = async (): Promise<void> => {
    for (const r of [...readers]) await r.close();
    await server.stop();
    if (!process.env.PRIVATE_SERVERS_KEEP) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await server.start(120_000);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    url: server.url,
    logFile: server.logFile,
    start: (timeoutMs) => server.start(timeoutMs),
    stop: (signal) => server.stop(signal),
    answers: () => server.answers(),
    running: () => server.running(),
    broker,
    saslBroker: `127.0.0.1:${sasl}`,
    user,
    close,
    async createTopic(topic) {
      const admin = client.admin();
      await admin.connect();
      try {
        await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }], waitForLeaders: true });
      } finally {
        await admin.disconnect();
      }
    },
    async consume(topic) {
      const consumer = client.consumer({ groupId: `e2e-${randomBytes(6).toString('hex')}` });
      const got: KafkaMessage[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          got.push(message);
        },
      });
      const reader: TopicReader = {
        got,
        waitFor: (n, timeoutMs = 60_000) =>
          eventually(async () => (got.length >= n ? got : undefined), timeoutMs, `${n} records on ${topic}`),
        async close() {
          readers.delete(reader);
          await consumer.disconnect().catch(() => undefined);
        },
      };
      readers.add(reader);
      return reader;
    },
  };
}
