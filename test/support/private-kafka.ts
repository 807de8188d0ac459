import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import type { KafkaMessage } from 'kafkajs';
import { kafkaHandshake, prepareKafka } from '../../bench/kafka-broker';
import { eventually } from './infra';
import { ManagedServer, discardServers } from './private-servers';
import type { PrivateServer } from './private-servers';

/*
 * A single-node Apache Kafka (KRaft) for one test file (bench/kafka-broker.js: free loopback
 * ports, a PLAINTEXT, a SASL (PLAIN, SCRAM-SHA-256) and a TLS listener, no automatic topics, the jars
 * `bash scripts/infra.sh tools` resolves), as a ManagedServer: stopped and started again on the
 * same log directory. Tests create their topics with `createTopic` and read them with `consume`.
 */

export interface PrivateKafka extends Omit<PrivateServer, 'name'> {
  /** `127.0.0.1:port` of the PLAINTEXT listener */
  readonly broker: string;
  /** `127.0.0.1:port` of the SASL_PLAINTEXT listener (PLAIN and SCRAM-SHA-256, for `user`) */
  readonly saslBroker: string;
  /** `127.0.0.1:port` of the SSL listener, whose self-signed certificate is `ca` */
  readonly tlsBroker: string;
  readonly ca: string;
  readonly user: { username: string; password: string };
  /** one partition; `config`: topic settings, e.g. `{ 'max.message.bytes': '1024' }` */
  createTopic(topic: string, config?: Record<string, string>): Promise<void>;
  /** a consumer (a group of its own) of `topic` from its beginning, every record kept */
  consume(topic: string): Promise<TopicReader>;
  close(): Promise<void>;
}

export interface TopicReader {
  readonly got: KafkaMessage[];
  waitFor(n: number, timeoutMs?: number): Promise<KafkaMessage[]>;
  close(): Promise<void>;
}

const quiet = { logLevel: logLevel.NOTHING } as const;

/** Formats the log directory and starts the broker; `close()` stops it and removes the directory. */
export async function startPrivateKafka(label: string): Promise<PrivateKafka> {
  const { dir, broker, saslBroker, tlsBroker, ca, user, command, args, env } = await prepareKafka(label);
  const server = new ManagedServer(
    { name: 'kafka', url: `kafka://${broker}`, command, args, env, handshake: () => kafkaHandshake(broker) },
    path.join(dir, 'kafka.log'),
  );
  const client = new Kafka({ clientId: `e2e-${label}`, brokers: [broker], ...quiet });
  const readers = new Set<TopicReader>();
  const close = async (): Promise<void> => {
    for (const r of [...readers]) await r.close();
    await discardServers(dir, server);
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
    saslBroker,
    tlsBroker,
    ca,
    user,
    close,
    async createTopic(topic, config = {}) {
      const admin = client.admin();
      await admin.connect();
      try {
        await admin.createTopics({
          topics: [
            {
              topic,
              numPartitions: 1,
              replicationFactor: 1,
              configEntries: Object.entries(config).map(([name, value]) => ({ name, value })),
            },
          ],
          waitForLeaders: true,
        });
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
