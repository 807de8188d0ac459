// The processes of bench/floor.js: the least an ingest-and-relay service built on the fixed
// architecture can do per event. Nothing of Relay is used; only its libraries.
//
//   FLOOR_ROLE=gateway node bench/floor-services.js    (PORT, RABBITMQ_URL, FLOOR_QUEUE)
//   FLOOR_ROLE=deliverer node bench/floor-services.js  (PORT, RABBITMQ_URL, FLOOR_QUEUE, FLOOR_TARGET_URL)
//   FLOOR_ROLE=writer node bench/floor-services.js     (PORT, RABBITMQ_URL, FLOOR_QUEUE, MONGODB_URL; with FLOOR_LOG=1 only)
//
// gateway: express 5 reads the body, publishes it persistent to a quorum queue on a confirm
// channel, and answers 202 once the broker confirmed (503 if it refused). No endpoint lookup,
// authentication, rate limit, quota, activity row or stored payload.
// deliverer: consumes that queue (manual acks, prefetch 256 like Relay's webhook-deliverer),
// POSTs each body with got to the target on a keep-alive agent, acks when the answer is read.
//
// FLOOR_LOG=1 adds the least the spec asks beyond that, each piece the cheapest way the fixed
// libraries allow (REDIS_URL, MONGODB_URL):
// - gateway: one EVALSHA per request before the publish (a rate-limit counter and a monthly
//   counter, auto-pipelined as Relay's limiter is); after the 202, a request record carrying the
//   payload, batched (up to 100 or 5 ms) onto an activity quorum queue with confirms;
// - deliverer: an outcome record per delivery, batched the same way; the delivery is acked once
//   its outcome's batch is confirmed (an outcome is never lost for an acked delivery);
// - writer: consumes the activity queue, holds each request record up to 1 s for its outcome
//   and inserts the two as one document (the payload inside it), unordered insertMany every
//   50 ms, then acks each message whose records are all written: one document per event (Relay
//   writes two: its row and, apart, the stored payload). An outcome past the hold is a document
//   of its own. A document is its `_id` and one JSON text, which FerretDB stores cheapest (as
//   Relay's rows are). No index, no status, no aggregation, no retention. Its readiness server
//   answers the number of records written and of documents.
'use strict';
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const amqp = require('amqplib');

const RABBITMQ_URL = process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672';
const QUEUE = process.env.FLOOR_QUEUE ?? '';
if (!QUEUE) throw new Error('FLOOR_QUEUE is required');

const LOG = process.env.FLOOR_LOG === '1';
const ACTIVITY_QUEUE = `${QUEUE}_activity`;
const quorum = { durable: true, arguments: { 'x-queue-type': 'quorum' } };

/**
 * @template {boolean} C
 * @param {C} confirm
 * @returns {Promise<C extends true ? import('amqplib').ConfirmChannel : import('amqplib').Channel>}
 */
async function channel(confirm) {
  const conn = await amqp.connect(RABBITMQ_URL);
  const ch = confirm ? await conn.createConfirmChannel() : await conn.createChannel();
  await ch.assertQueue(QUEUE, quorum);
  if (LOG) await ch.assertQueue(ACTIVITY_QUEUE, quorum);
  return /** @type {C extends true ? import('amqplib').ConfirmChannel : import('amqplib').Channel} */ (ch);
}

/** @typedef {(err: unknown) => void} Done */

/**
 * Records gathered into one confirmed message of up to 100, or whatever came within 5 ms.
 * @param {import('amqplib').ConfirmChannel} ch
 * @returns {(record: unknown, done: Done) => void}
 */
function activityBatcher(ch) {
  /** @type {{ record: unknown; done: Done }[]} */
  let batch = [];
  /** @type {NodeJS.Timeout | null} */
  let timer = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const sent = batch;
    batch = [];
    const body = Buffer.from(JSON.stringify(sent.map((b) => b.record)));
    ch.publish('', ACTIVITY_QUEUE, body, { persistent: true, contentType: 'application/json' }, (err) => {
      for (const b of sent) b.done(err);
    });
  };
  return (record, done) => {
    batch.push({ record, done });
    if (batch.length >= 100) flush();
    else timer ??= setTimeout(flush, 5);
  };
}

const ADMIT_LUA = `
local rate = redis.call('INCR', KEYS[1])
if rate == 1 then redis.call('PEXPIRE', KEYS[1], 60000) end
local month = redis.call('INCR', KEYS[2])
if month == 1 then redis.call('EXPIRE', KEYS[2], tonumber(ARGV[2])) end
if rate > tonumber(ARGV[1]) then return {1, 1000, month} end
return {0, 0, month}`;

/** @returns {(endpointId: string) => Promise<[number, number, number]>} */
function limiter() {
  const { Redis } = require('ioredis');
  const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379', {
    enableAutoPipelining: true,
    maxRetriesPerRequest: 0,
  });
  redis.defineCommand('floorAdmit', { numberOfKeys: 2, lua: ADMIT_LUA });
  const admit =
    /** @type {(rateKey: string, quotaKey: string, limit: number, ttlS: number) => Promise<[number, number, number]>} */ (
      /** @type {any} */ (redis).floorAdmit.bind(redis)
    );
  return (endpointId) =>
    admit(`${QUEUE}:rate:${endpointId}:${Math.floor(Date.now() / 60000)}`, `${QUEUE}:quota:${endpointId}`, 1e9, 3600);
}

/**
 * The TCP port a listening server is bound to.
 * @param {import('node:net').Server} server
 */
const portOf = (server) => /** @type {import('node:net').AddressInfo} */ (server.address()).port;

async function gateway() {
  const express = require('express');
  const ch = await channel(true);
  const admit = LOG ? limiter() : null;
  const record = LOG ? activityBatcher(ch) : null;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  /**
   * @param {import('express').Request<{ endpointId: string }>} req
   * @param {import('express').Response} res
   * @param {string} eventId
   * @param {string} receivedAt
   */
  const publish = (req, res, eventId, receivedAt) =>
    ch.publish(
      '',
      QUEUE,
      req.body,
      { persistent: true, messageId: eventId, contentType: req.get('content-type') },
      (err) => {
        if (err) {
          res.status(503).json({ code: 'delivery_queue_unavailable', message: 'not confirmed' });
          return;
        }
        res.status(202).set('X-Relay-Event-Id', eventId).json({ message: 'Payload received' });
        record?.(
          {
            event_id: eventId,
            endpoint_id: req.params.endpointId,
            received_at: receivedAt,
            method: req.method,
            source_ip: req.socket.remoteAddress,
            outcome: 'accepted',
            body_base64: req.body.toString('base64'),
          },
          () => undefined,
        );
      },
    );
  app.post('/relay/:endpointId', express.raw({ type: () => true, limit: '1mb' }), (req, res) => {
    const eventId = randomUUID();
    const receivedAt = new Date().toISOString();
    if (!admit) {
      publish(req, res, eventId, receivedAt);
      return;
    }
    admit(req.params.endpointId).then(
      ([verdict]) =>
        verdict === 0
          ? publish(req, res, eventId, receivedAt)
          : res.status(429).json({ code: 'rate_limited', message: 'rate limit' }),
      () => res.status(503).json({ code: 'limiter_unavailable', message: 'redis' }),
    );
  });
  const server = app.listen(Number(process.env.PORT || 0), '127.0.0.1', () =>
    process.stdout.write(`listening ${portOf(server)}\n`),
  );
  server.keepAliveTimeout = 65000;
}

async function deliverer() {
  // got 11: the CommonJS export is the instance itself, `.default` the same object with its types
  const got = require('got').default;
  const target = process.env.FLOOR_TARGET_URL ?? '';
  const agent = { http: new http.Agent({ keepAlive: true }) };
  const ch = await channel(false);
  const record = LOG ? activityBatcher(await channel(true)) : null;
  await ch.prefetch(256);
  await ch.consume(QUEUE, (m) => {
    // never null: the consumer is not cancelled while the process runs
    const msg = /** @type {import('amqplib').ConsumeMessage} */ (m);
    const started = Date.now();
    const delivered = (/** @type {import('got').Response} */ res) => {
      if (res.statusCode >= 300) return ch.nack(msg, false, true);
      if (!record) return ch.ack(msg);
      const outcome = {
        event_id: msg.properties.messageId,
        attempt: 1,
        status: res.statusCode,
        attempted_at: new Date(started).toISOString(),
        duration_ms: Date.now() - started,
      };
      record(outcome, (err) => (err ? ch.nack(msg, false, true) : ch.ack(msg)));
    };
    got
      .post(target, {
        body: msg.content,
        headers: {
          'content-type': msg.properties.contentType || 'application/octet-stream',
          'x-relay-event-id': msg.properties.messageId,
        },
        agent,
        retry: { limit: 0 },
        throwHttpErrors: false,
        followRedirect: false,
        decompress: false,
        timeout: { request: 10000 },
      })
      .then(delivered, () => ch.nack(msg, false, true));
  });
  // the readiness line floor.js waits for
  const server = http.createServer((_req, res) => res.end('ok'));
  server.listen(Number(process.env.PORT || 0), '127.0.0.1', () =>
    process.stdout.write(`listening ${portOf(server)}\n`),
  );
}

async function writer() {
  const mongoose = require('mongoose');
  const conn = await mongoose.createConnection(process.env.MONGODB_URL ?? '').asPromise();
  const records = /** @type {import('mongodb').Db} */ (conn.db).collection('records');
  const ch = await channel(false);
  // the hold keeps messages unacked for up to HOLD_MS: room for them at the load's rate
  await ch.prefetch(2000);
  const HOLD_MS = 1000;
  /** @type {Map<string, { record: Record<string, unknown>; at: number; msg: import('amqplib').ConsumeMessage }>} */
  const open = new Map(); // request records waiting for their outcome, oldest first
  /** @type {Map<import('amqplib').ConsumeMessage, number>} */
  const outstanding = new Map(); // message → its records not written yet
  /** @type {{ doc: { _id: string; r: string }; records: number; msgs: import('amqplib').ConsumeMessage[] }[]} */
  let ready = [];
  let written = 0;
  let documents = 0;
  let writing = false;
  const flush = async () => {
    if (writing) return;
    const now = Date.now();
    for (const [id, req] of open) {
      if (now - req.at < HOLD_MS) break;
      open.delete(id);
      ready.push({ doc: { _id: id, r: JSON.stringify(req.record) }, records: 1, msgs: [req.msg] });
    }
    if (ready.length === 0) return;
    writing = true;
    const batch = ready;
    ready = [];
    try {
      // a redelivered message finds its documents there already: duplicate keys are fine
      await records
        .insertMany(/** @type {any[]} */ (batch.map((b) => b.doc)), { ordered: false })
        .catch((/** @type {{ code?: number; writeErrors?: { code: number }[] }} */ err) => {
          if (err.code !== 11000 && !(err.writeErrors ?? []).every((e) => e.code === 11000)) throw err;
        });
    } catch (err) {
      // the bench then reports the log as not caught up
      process.stderr.write(`floor writer: ${/** @type {Error} */ (err).message}\n`);
      process.exit(1);
    }
    documents += batch.length;
    for (const b of batch) {
      written += b.records;
      for (const m of b.msgs) {
        const left = (outstanding.get(m) ?? 0) - 1;
        if (left > 0) outstanding.set(m, left);
        else {
          outstanding.delete(m);
          ch.ack(m);
        }
      }
    }
    writing = false;
  };
  setInterval(flush, 50);
  await ch.consume(ACTIVITY_QUEUE, (m) => {
    // never null: the consumer is not cancelled while the process runs
    const msg = /** @type {import('amqplib').ConsumeMessage} */ (m);
    /** @type {Record<string, any>[]} */
    const list = JSON.parse(msg.content.toString());
    outstanding.set(msg, list.length);
    for (const r of list) {
      if (r.outcome) {
        open.set(r.event_id, { record: r, at: Date.now(), msg });
        continue;
      }
      // an outcome within the hold is merged into its request's document: one document per event
      const req = open.get(r.event_id);
      if (req) open.delete(r.event_id);
      ready.push(
        req
          ? {
              doc: { _id: r.event_id, r: JSON.stringify({ ...req.record, attempts: [r] }) },
              records: 2,
              msgs: [req.msg, msg],
            }
          : { doc: { _id: `${r.event_id}~a${r.attempt}`, r: JSON.stringify(r) }, records: 1, msgs: [msg] },
      );
    }
    // flush reports its own failure and exits
    if (ready.length >= 1000) void flush();
  });
  const server = http.createServer((_req, res) => res.end(JSON.stringify({ written, documents })));
  server.listen(Number(process.env.PORT || 0), '127.0.0.1', () =>
    process.stdout.write(`listening ${portOf(server)}\n`),
  );
}

const role = process.env.FLOOR_ROLE;
const roles = { gateway, deliverer, writer };
if (!(role === 'gateway' || role === 'deliverer' || (role === 'writer' && LOG)))
  throw new Error('FLOOR_ROLE must be gateway, deliverer, or writer (with FLOOR_LOG=1)');
roles[role]().catch((err) => {
  process.stderr.write(`floor ${role}: ${err.stack || err}\n`);
  process.exit(1);
});
