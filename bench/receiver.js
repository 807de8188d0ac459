// The body the benches send and the receiver of its deliveries (bench/system.js, bench/floor.js).
// The receiver is its own process, so the load generator's event loop does not delay it. It
// answers 200 at once and streams [request id, event id, arrival ms] back; the request id is the
// 16 characters after the body's first `"id":"`, and the event id the X-Relay-Event-Id header.
'use strict';
const { fork } = require('node:child_process');
const http = require('node:http');

const ID_MARK = Buffer.from('"id":"');
const ID_LEN = 16;

// A 1,008-byte JSON body like bench/gateway.js; its 16-character "id" carries the phase and a
// sequence number, so the receiver can tell which accepted request each delivery belongs to.
const NOTE = 'y'.repeat(940);
const requestId = (phase, seq) => `${phase}${String(seq).padStart(ID_LEN - 1, '0')}`;
const makeBody = (id) => `{"event":"order.created","id":"${id}","data":{"note":"${NOTE}"}}`;

function runReceiver() {
  let pending = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      const i = body.indexOf(ID_MARK);
      const id = i < 0 ? '' : body.toString('latin1', i + ID_MARK.length, i + ID_MARK.length + ID_LEN);
      pending.push([id, String(req.headers['x-relay-event-id'] || ''), at]);
      res.writeHead(200, { 'content-length': '2' }).end('ok');
    });
  });
  server.keepAliveTimeout = 65000;
  const flush = () => {
    if (pending.length === 0) return;
    process.send({ type: 'arrivals', items: pending });
    pending = [];
  };
  setInterval(flush, 200);
  process.on('message', (m) => {
    if (m.type !== 'flush') return;
    flush();
    process.send({ type: 'flushed' });
  });
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
}

/** The bench side of the receiver: every first arrival by event id, and the duplicates. */
function startReceiver() {
  const child = fork(__filename, ['--receiver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.exited = new Promise((resolve) => child.once('exit', resolve));
  const state = { child, port: 0, byEvent: new Map(), byId: new Map(), order: [], duplicates: 0, unknown: 0 };
  let flushed = () => undefined;
  child.on('message', (m) => {
    if (m.type === 'flushed') return flushed();
    if (m.type !== 'arrivals') return undefined;
    for (const [id, eventId, at] of m.items) {
      if (state.byEvent.has(eventId)) {
        state.duplicates += 1;
        continue;
      }
      state.byEvent.set(eventId, id);
      if (!id) state.unknown += 1;
      else if (!state.byId.has(id)) state.byId.set(id, { eventId, at });
      state.order.push({ id, eventId, at });
    }
    return undefined;
  });
  state.flush = () => new Promise((resolve) => {
    flushed = resolve;
    child.send({ type: 'flush' });
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receiver exited (${code})`)));
    child.once('message', (m) => {
      state.port = m.port;
      resolve(state);
    });
  });
}

/** Waits until every id in `accepted` has reached the receiver, or until `deadline`; returns how many have not. */
async function waitDelivered(receiver, accepted, deadline) {
  for (;;) {
    await receiver.flush();
    let missing = 0;
    for (const id of accepted) if (!receiver.byId.has(id)) missing += 1;
    if (missing === 0 || Date.now() > deadline) return missing;
    await new Promise((r) => setTimeout(r, 200));
  }
}

module.exports = { makeBody, requestId, startReceiver, waitDelivered };

if (require.main === module && process.argv[2] === '--receiver') runReceiver();
