#!/usr/bin/env node
'use strict';
/**
 * Waits until Redis, RabbitMQ and the MongoDB-wire server answer a protocol handshake: Redis
 * PING, an AMQP channel opened, a MongoDB `ping` command. An open port is not "ready"
 * (RabbitMQ accepts TCP long before it accepts AMQP; see STYLE.md, Tests).
 *
 *   node scripts/infra-wait.js [--timeout SECONDS] [--quiet] [redis] [rabbitmq] [mongodb]
 *
 * URLs come from REDIS_URL, RABBITMQ_URL and MONGODB_URL, defaulting to the loopback servers
 * that scripts/infra.sh starts. With no server named, waits for all three. `--timeout 0` tries
 * once (infra.sh uses that to tell whether something already serves a port). Exits 0 when
 * every server named answered, 1 otherwise.
 */
const amqp = require('amqplib');
const { Redis } = require('ioredis');
const { MongoClient } = require('mongoose').mongo;

const ATTEMPT_TIMEOUT_MS = 3000;
const RETRY_PAUSE_MS = 500;
const REPORT_EVERY_MS = 5000;

/** @typedef {{ url: string; handshake(url: string): Promise<void> }} Server */
/** @typedef {'redis' | 'rabbitmq' | 'mongodb'} ServerName */

/** @type {Record<ServerName, Server>} */
const servers = {
  redis: {
    url: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    async handshake(url) {
      const client = new Redis(url, {
        lazyConnect: true,
        connectTimeout: ATTEMPT_TIMEOUT_MS,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
        retryStrategy: () => null,
      });
      client.on('error', () => {}); // the failed connect() below carries the error
      try {
        await client.connect();
        const pong = await client.ping();
        if (pong !== 'PONG') throw new Error(`PING answered ${pong}`);
      } finally {
        client.disconnect();
      }
    },
  },
  rabbitmq: {
    url: process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672',
    async handshake(url) {
      const conn = await amqp.connect(url, { timeout: ATTEMPT_TIMEOUT_MS });
      conn.on('error', () => {});
      try {
        const channel = await conn.createChannel();
        await channel.close();
      } finally {
        await conn.close().catch(() => {});
      }
    },
  },
  mongodb: {
    url: process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay',
    async handshake(url) {
      const client = new MongoClient(url, {
        serverSelectionTimeoutMS: ATTEMPT_TIMEOUT_MS,
        connectTimeoutMS: ATTEMPT_TIMEOUT_MS,
      });
      try {
        await client.connect();
        await client.db('admin').command({ ping: 1 });
      } finally {
        await client.close().catch(() => {});
      }
    },
  },
};

/**
 * Never print credentials that a URL may carry.
 * @param {string} url
 */
function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable URL>';
  }
}

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @returns {Promise<T>}
 */
function withTimeout(promise, ms) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((/** @type {(value: never) => void} */ _, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @param {ServerName} name
 * @param {number} deadline
 * @param {boolean} quiet
 */
async function waitFor(name, deadline, quiet) {
  const { url, handshake } = servers[name];
  const shown = redact(url);
  let lastReport = 0;
  for (;;) {
    const started = Date.now();
    try {
      await withTimeout(handshake(url), ATTEMPT_TIMEOUT_MS + 1000);
      if (!quiet) console.log(`infra-wait: ${name} ready (${shown})`);
      return true;
    } catch (err) {
      const e = /** @type {{ code?: string; message?: string } | null} */ (err);
      const why = (e && (e.code || e.message)) || String(err);
      const now = Date.now();
      if (now >= deadline) {
        if (!quiet) console.error(`infra-wait: ${name} NOT ready at ${shown}: ${why}`);
        return false;
      }
      if (!quiet && now - lastReport >= REPORT_EVERY_MS) {
        console.log(`infra-wait: waiting for ${name} at ${shown} (${why})`);
        lastReport = now;
      }
      await sleep(Math.max(0, RETRY_PAUSE_MS - (Date.now() - started)));
    }
  }
}

/** @param {string[]} argv */
async function main(argv) {
  let timeoutSeconds = 120;
  let quiet = false;
  /** @type {ServerName[]} */
  const names = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--timeout') timeoutSeconds = Number(argv[++i]);
    else if (arg === '--quiet') quiet = true;
    else if (arg !== undefined && arg in servers) names.push(/** @type {ServerName} */ (arg));
    else {
      console.error(
        `infra-wait: unknown argument "${arg}"; expected --timeout N, --quiet, ${Object.keys(servers).join(', ')}`,
      );
      return 2;
    }
  }
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0) {
    console.error('infra-wait: --timeout needs a number of seconds >= 0');
    return 2;
  }
  const deadline = Date.now() + timeoutSeconds * 1000;
  const chosen = names.length > 0 ? names : /** @type {ServerName[]} */ (Object.keys(servers));
  const results = await Promise.all(chosen.map((name) => waitFor(name, deadline, quiet)));
  return results.every(Boolean) ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error('infra-wait: unexpected failure', err);
    process.exit(1);
  },
);
