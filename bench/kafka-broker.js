'use strict';
// A single-node Apache Kafka (KRaft: broker and controller in one JVM) on free loopback ports,
// its log directory in a temporary directory that survives a restart: the one description the
// Kafka target's tests (test/support/private-kafka.ts) and bench/outputs.js share. The jars are
// those `bash scripts/infra.sh tools` resolves from Maven Central into
// <repo>/.infra/tools/kafka-<version>/libs (KAFKA_LIBS overrides). Three listeners: PLAINTEXT,
// SASL_PLAINTEXT with PLAIN and SCRAM-SHA-256 for one user, and SSL with a self-signed certificate for 127.0.0.1.
// Topics are never created automatically.

const { spawn, spawnSync } = require('node:child_process');
const { createPrivateKey, randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Kafka, logLevel } = require('kafkajs');
const { freePort } = require('./free-port');
const { certificate } = require('./outputs-receivers');

const ROOT = path.resolve(__dirname, '..');
/** a small heap and a quick start; the serial collector keeps it to one GC thread on a shared machine */
const JVM = ['-Xms128m', '-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true'];

/** The newest assembled jar directory (infra.sh marks a complete one with `.complete`). */
function kafkaLibs() {
  if (process.env.KAFKA_LIBS) return process.env.KAFKA_LIBS;
  const tools = path.join(ROOT, '.infra', 'tools');
  const versions = fs.existsSync(tools)
    ? fs
        .readdirSync(tools)
        .filter((d) => /^kafka-\d/.test(d) && fs.existsSync(path.join(tools, d, 'libs', '.complete')))
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    : [];
  const newest = versions.pop();
  if (!newest) throw new Error(`no Kafka jars under ${tools}: run \`bash scripts/infra.sh tools\` or set KAFKA_LIBS`);
  return path.join(tools, newest, 'libs');
}

/**
 * One metadata answer from `broker`; throws while it does not answer.
 * @param {string} broker
 */
async function kafkaHandshake(broker) {
  const admin = new Kafka({
    brokers: [broker],
    connectionTimeout: 2000,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * @param {string} dir
 * @param {{ plain: number, sasl: number, tls: number, controller: number }} ports
 * @param {{ username: string, password: string }} user
 * @param {string} keystore a PEM file: the TLS listener's private key (PKCS #8) and certificate
 */
function serverProperties(dir, ports, user, keystore) {
  const { plain, sasl, tls, controller } = ports;
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controller}`,
    `listeners=PLAINTEXT://127.0.0.1:${plain},SASL_PLAINTEXT://127.0.0.1:${sasl},SSL://127.0.0.1:${tls},CONTROLLER://127.0.0.1:${controller}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${plain},SASL_PLAINTEXT://127.0.0.1:${sasl},SSL://127.0.0.1:${tls}`,
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,CONTROLLER:PLAINTEXT',
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256',
    `listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_${user.username}="${user.password}";`,
    // SCRAM credentials live in the cluster's metadata: `format --add-scram` writes them
    'listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
    'ssl.keystore.type=PEM',
    `ssl.keystore.location=${keystore}`,
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

/**
 * Writes the configuration and formats the log directory (`kafka-storage format`); returns how to
 * run the broker (at the lowest CPU priority, as every JVM here) and where it listens.
 * @param {string} label
 */
async function prepareKafka(label) {
  const libs = kafkaLibs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `relay-${label}-`));
  const ports = new Set();
  while (ports.size < 4) ports.add(await freePort());
  const [plain, sasl, tls, controller] = /** @type {number[]} */ ([...ports]);
  const user = { username: 'relay', password: randomBytes(12).toString('base64url') };
  const pems = certificate();
  const keystore = path.join(dir, 'tls.pem');
  fs.writeFileSync(keystore, `${createPrivateKey(pems.private).export({ type: 'pkcs8', format: 'pem' })}${pems.cert}`);
  const props = path.join(dir, 'server.properties');
  fs.writeFileSync(props, serverProperties(dir, { plain, sasl, tls, controller }, user, keystore));
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };
  /** @param {string} main @param {string[]} args */
  const java = (main, args) => ['-n', '19', 'java', ...JVM, '-cp', `${libs}/*`, main, ...args];
  // Kafka's own ids never start with '-' (Uuid.randomUuid draws again): the tool's argument
  // parser would read such an id as an option
  let clusterId = randomBytes(16).toString('base64url');
  while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url');
  const format = spawnSync(
    'nice',
    java('kafka.tools.StorageTool', [
      'format',
      '-t',
      clusterId,
      '-c',
      props,
      '--add-scram',
      `SCRAM-SHA-256=[name=${user.username},password=${user.password}]`,
    ]),
    {
      env,
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  if (format.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`kafka-storage format failed: ${(format.stderr || format.error?.message || '').trim()}`);
  }
  return {
    dir,
    broker: `127.0.0.1:${plain}`,
    saslBroker: `127.0.0.1:${sasl}`,
    tlsBroker: `127.0.0.1:${tls}`,
    /** the TLS listener's certificate, the one to trust */
    ca: pems.cert,
    user,
    command: 'nice',
    args: java('kafka.Kafka', [props]),
    env,
  };
}

/**
 * For the bench: a broker started and answering; `stop()` ends it and removes its directory.
 * @param {string} label
 * @param {number} [timeoutMs]
 */
async function startKafka(label, timeoutMs = 120_000) {
  const k = await prepareKafka(label);
  const log = fs.openSync(path.join(k.dir, 'kafka.log'), 'a');
  // a process group of its own: nice and the JVM stop together
  const child = spawn(k.command, k.args, { env: k.env, stdio: ['ignore', log, log], detached: true });
  fs.closeSync(log);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // a bench that fails before it stops the broker must not leave a JVM behind
  const orphan = () => {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  };
  process.once('exit', orphan);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    process.removeListener('exit', orphan);
    fs.rmSync(k.dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      const tail = fs.readFileSync(path.join(k.dir, 'kafka.log'), 'utf8').slice(-2000);
      await stop();
      throw new Error(`kafka exited (${child.exitCode}) before it answered:\n${tail}`);
    }
    if (
      await kafkaHandshake(k.broker).then(
        () => true,
        () => false,
      )
    )
      return { ...k, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`kafka did not answer within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

module.exports = { kafkaHandshake, prepareKafka, startKafka };
