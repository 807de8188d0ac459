// The two processes of bench/floor.js: the least an ingest-and-relay service built on the fixed
// architecture can do per event. Nothing of Relay is used; only its libraries.
//
//   FLOOR_ROLE=gateway node bench/floor-services.js    (PORT, RABBITMQ_URL, FLOOR_QUEUE)
//   FLOOR_ROLE=deliverer node bench/floor-services.js  (PORT, RABBITMQ_URL, FLOOR_QUEUE, FLOOR_TARGET_URL)
//
// gateway: express 5 reads the body, publishes it persistent to a quorum queue on a confirm
// channel, and answers 202 once the broker confirmed (503 if it refused). No endpoint lookup,
// authentication, rate limit, quota, activity row or stored payload.
// deliverer: consumes that queue (manual acks, prefetch 256 like Relay's webhook-deliverer),
// POSTs each body with got to the target on a keep-alive agent, acks when the answer is read.
'use strict';
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const amqp = require('amqplib');

const RABBITMQ_URL = process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672';
const QUEUE = process.env.FLOOR_QUEUE;
if (!QUEUE) throw new Error('FLOOR_QUEUE is required');

async function channel(confirm) {
  const conn = await amqp.connect(RABBITMQ_URL);
  const ch = confirm ? await conn.createConfirmChannel() : await conn.createChannel();
  await ch.assertQueue(QUEUE, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  return ch;
}

async function gateway() {
  const express = require('express');
  const ch = await channel(true);
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.post('/relay/:endpointId', express.raw({ type: () => true, limit: '1mb' }), (req, res) => {
    const eventId = randomUUID();
    ch.publish('', QUEUE, req.body, { persistent: true, messageId: eventId, contentType: req.get('content-type') }, (err) => {
      if (err) res.status(503).json({ code: 'delivery_queue_unavailable', message: 'not confirmed' });
      else res.status(202).set('X-Relay-Event-Id', eventId).json({ message: 'Payload received' });
    });
  });
  const server = app.listen(Number(process.env.PORT || 0), '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
  server.keepAliveTimeout = 65000;
}

async function deliverer() {
  const got = require('got');
  const target = process.env.FLOOR_TARGET_URL;
  const agent = { http: new http.Agent({ keepAlive: true }) };
  const ch = await channel(false);
  await ch.prefetch(256);
  await ch.consume(QUEUE, (msg) => {
    got.post(target, {
      body: msg.content,
      headers: { 'content-type': msg.properties.contentType || 'application/octet-stream', 'x-relay-event-id': msg.properties.messageId },
      agent,
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      decompress: false,
      timeout: { request: 10000 },
    }).then(
      (res) => (res.statusCode < 300 ? ch.ack(msg) : ch.nack(msg, false, true)),
      () => ch.nack(msg, false, true),
    );
  });
  // the readiness line floor.js waits for
  const server = http.createServer((_req, res) => res.end('ok'));
  server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
}

const role = process.env.FLOOR_ROLE;
if (role === 'gateway') gateway();
else if (role === 'deliverer') deliverer();
else throw new Error('FLOOR_ROLE must be gateway or deliverer');
