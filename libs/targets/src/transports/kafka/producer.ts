import * as dns from 'node:dns';
import * as net from 'node:net';
import * as tls from 'node:tls';
import type * as KafkaJs from 'kafkajs';
import type { ISocketFactory, Producer, SASLOptions } from 'kafkajs';
import { createAddressPolicy, guardedLookup, SsrfBlockedError } from '../../ssrf';
import type { AddressPolicy } from '../../ssrf';
import { onFirstUse } from '../on-first-use';
import { ClientPool, ownedKey } from '../pool';
import type { PooledLink, PooledLinkOptions, PoolOwner } from '../pool';

const kafkaJs = onFirstUse(() => require('kafkajs') as typeof KafkaJs);

/** How to reach one Kafka cluster: the plaintext password, held only in memory. */
export interface KafkaCluster {
  brokers: readonly string[];
  tls: boolean;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

/** One record to produce. */
export interface KafkaRecord {
  topic: string;
  /** absent: no key (the client spreads keyless records over the partitions) */
  key?: string;
  value: Buffer;
  headers: Record<string, string>;
  /** ms since the epoch, as text (Kafka's CreateTime) */
  timestamp: string;
}

/**
 * What a produce came to: the partition and offset the leader wrote it at (acks=all: every
 * in-sync replica has it), or an error: Kafka's error name (`TOPIC_AUTHORIZATION_FAILED`),
 * `SASL_AUTHENTICATION_FAILED`, `SSRF_BLOCKED`, or the socket's code.
 */
export type ProduceOutcome = { partition: number; offset: string } | { error: { code: string; message: string } };

/** The outputs deliverer's route to the clusters of Kafka targets. */
export interface KafkaLink extends PooledLink {
  produce(owner: PoolOwner, cluster: KafkaCluster, record: KafkaRecord): Promise<ProduceOutcome>;
}

/**
 * The client's own retries inside one attempt: a leader moving or a broker restarting is
 * answered within a second or two; past this the attempt is a retry on the target's schedule.
 */
const CLIENT_RETRY = { retries: 3, initialRetryTime: 100, maxRetryTime: 1000 };
const KEEP_ALIVE_MS = 60_000;

/**
 * The error that says why: kafkajs wraps the broker's error (`type`) or the socket's (`code`)
 * in retry and aggregate errors; a SASL refusal has a class of its own.
 */
export function kafkaErrorCode(err: unknown): string {
  let e = err as { name?: string; type?: unknown; code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; e && depth < 8; depth++) {
    if (typeof e.type === 'string') return e.type;
    if (e.name === 'KafkaJSSASLAuthenticationError') return 'SASL_AUTHENTICATION_FAILED';
    if (typeof e.code === 'string') return e.code;
    if (e.name === 'KafkaJSRequestTimeoutError') return 'REQUEST_TIMED_OUT';
    if (e.name === 'KafkaJSConnectionClosedError') return 'ECONNCLOSED';
    e = (e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined)) as typeof e;
  }
  return 'EKAFKA';
}

/**
 * Every socket the client opens passes the SSRF guard, the bootstrap brokers' and those the
 * cluster's metadata names alike: a literal address is checked here, a name by the lookup inside
 * net.connect, so the address checked is the address dialled. Certificates are verified against
 * the broker's host name.
 */
function guardedSockets(policy: AddressPolicy): ISocketFactory {
  const lookup = guardedLookup(policy, dns.lookup as unknown as net.LookupFunction);
  return ({ host, port, ssl, onConnect }) => {
    const literal = net.isIP(host) !== 0;
    const refused = literal ? policy.check(host) : null;
    if (refused !== null) {
      const socket = new net.Socket();
      process.nextTick(() => socket.destroy(new SsrfBlockedError(host, refused)));
      return socket;
    }
    const socket = ssl
      ? tls.connect(
          { host, port, lookup, ...(literal ? {} : { servername: host }), ...ssl, rejectUnauthorized: true },
          onConnect,
        )
      : net.connect({ host, port, lookup }, onConnect);
    socket.setKeepAlive(true, KEEP_ALIVE_MS);
    return socket;
  };
}

interface Held {
  producer: Producer;
  open: boolean;
}

async function open(cluster: KafkaCluster, policy: AddressPolicy, opts: PooledLinkOptions): Promise<Held> {
  const { Kafka, logLevel, Partitioners } = kafkaJs();
  const kafka = new Kafka({
    clientId: 'relay',
    brokers: [...cluster.brokers],
    ssl: cluster.tls ? { rejectUnauthorized: true } : false,
    ...(cluster.sasl ? { sasl: cluster.sasl as SASLOptions } : {}),
    connectionTimeout: opts.connectTimeoutMs,
    authenticationTimeout: opts.connectTimeoutMs,
    requestTimeout: opts.commandTimeoutMs,
    retry: CLIENT_RETRY,
    socketFactory: guardedSockets(policy),
    // outcomes are the attempts' results; the client's own log would repeat them per retry
    logLevel: logLevel.NOTHING,
  });
  // idempotent: the producer id and per-partition sequence numbers let the broker drop a batch
  // the client sends again after a lost answer; it implies acks=all and one request in flight
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: true,
    retry: CLIENT_RETRY,
    // murmur2 over the key, as the Java client: a key lands where other producers put it
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const held: Held = { producer, open: true };
  producer.on(producer.events.DISCONNECT, () => {
    held.open = false;
  });
  try {
    await producer.connect();
  } catch (err) {
    // a connect that failed part-way (one broker refused SASL) may hold sockets to others
    await producer.disconnect().catch(() => undefined);
    throw err;
  }
  return held;
}

/** `work`'s outcome, or `late()`'s past `ms` (the work goes on; the caller closes what it started). */
async function within<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const failure = (err: unknown): ProduceOutcome => ({
  error: { code: kafkaErrorCode(err), message: String((err as Error)?.message ?? err) },
});

/** The send, or REQUEST_TIMED_OUT past `timeoutMs` (the client is then closed: its answer may still come). */
function produceOn(held: Held, r: KafkaRecord, timeoutMs: number): Promise<ProduceOutcome> {
  const message = {
    ...(r.key !== undefined ? { key: r.key } : {}),
    value: r.value,
    headers: r.headers,
    timestamp: r.timestamp,
  };
  const sent = held.producer
    .send({ topic: r.topic, acks: -1, timeout: timeoutMs, messages: [message] })
    .then(
      ([written]): ProduceOutcome => ({ partition: written?.partition ?? 0, offset: written?.baseOffset ?? '' }),
      failure,
    );
  return within(sent, timeoutMs, () => {
    held.open = false;
    return { error: { code: 'REQUEST_TIMED_OUT', message: `no answer within ${timeoutMs} ms` } };
  });
}

/** Pooled idempotent producers to the clusters of Kafka targets, keyed by a digest of brokers, TLS and credentials. */
export function createKafkaLink(opts: PooledLinkOptions): KafkaLink {
  const policy = createAddressPolicy({ allowCidrs: opts.allowCidrs });
  const pool = new ClientPool<Held>({
    healthy: (h) => h.open,
    close: (h) => {
      h.open = false;
      void h.producer.disconnect().catch(() => undefined);
    },
    maxClients: opts.maxClients,
    idleMs: opts.idleMs,
  });
  return pool.link<KafkaLink>({
    async produce(owner, cluster, record) {
      const key = ownedKey(owner, JSON.stringify(cluster));
      // the client's connect retries, bounded as one connection attempt of the other kinds is
      const opened = await within<Held | ProduceOutcome>(
        pool.get(key, () => open(cluster, policy, opts), owner).catch(failure),
        opts.connectTimeoutMs,
        () => {
          pool.discard(key);
          return { error: { code: 'ETIMEDOUT', message: `not connected within ${opts.connectTimeoutMs} ms` } };
        },
      );
      if ('error' in opened) return opened;
      const held = opened as Held;
      const outcome = await produceOn(held, record, opts.commandTimeoutMs);
      // After a failed send the client rolls its sequence number back; had the broker written the
      // batch, the next record would carry the same number and be dropped as its duplicate. A new
      // producer id for the next attempt rules that out (the retry may then duplicate instead:
      // docs/targets-queues.md "Apache Kafka").
      if ('error' in outcome) held.open = false;
      if (!held.open) pool.discard(key);
      return outcome;
    },
  });
}
