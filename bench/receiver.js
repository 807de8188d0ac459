// The body the benches send and the receiver of its deliveries (bench/system.js, bench/floor.js).
// The receiver is its own process, so the load generator's event loop does not delay it. It
// answers 200 at once and streams [request id, event id, arrival ms] back; the request id is the
// 16 characters after the body's first `"id":"`, and the event id the X-Relay-Event-Id header.
'use strict';
const { fork } = require('node:child_process');
const http = require('node:http');
const { portOf } = require('./lib');

/** @typedef {[requestId: string, eventId: string, atMs: number]} Arrival */
/**
 * What the receiver process tells the bench over IPC.
 * @typedef {{ type: 'listening'; port: number } | { type: 'arrivals'; items: Arrival[] } | { type: 'flushed' }} ReceiverMessage
 */
/**
 * The bench's view of the receiver: every first arrival by event id, and the duplicates.
 * @typedef {{
 *   child: import('node:child_process').ChildProcess & { exited: Promise<number | null> };
 *   port: number;
 *   byEvent: Map<string, string>;
 *   byId: Map<string, { eventId: string; at: number }>;
 *   order: { id: string; eventId: string; at: number }[];
 *   duplicates: number;
 *   unknown: number;
 *   flush(): Promise<void>;
 * }} Receiver
 */

/** @param {ReceiverMessage} m */
const send = (m) => process.send?.(m);

const ID_MARK = Buffer.from('"id":"');
const ID_LEN = 16;

// A 1,008-byte JSON body like bench/gateway.js; its 16-character "id" carries the phase and a
// sequence number, so the receiver can tell which accepted request each delivery belongs to.
const NOTE = 'y'.repeat(940);
const requestId = (/** @type {string} */ phase, /** @type {number} */ seq) =>
  `${phase}${String(seq).padStart(ID_LEN - 1, '0')}`;
/**
 * With `key` (BENCH_ORDERING, bench/system.js): a `"key":"k0042"` field, its 14 bytes taken off the
 * note, so the body keeps its size.
 */
const makeBody = (/** @type {string} */ id, /** @type {number | undefined} */ key = undefined) =>
  key === undefined
    ? `{"event":"order.created","id":"${id}","data":{"note":"${NOTE}"}}`
    : `{"event":"order.created","id":"${id}","key":"k${String(key).padStart(4, '0')}","data":{"note":"${NOTE.slice(14)}"}}`;

function runReceiver() {
  /** @type {Arrival[]} */
  let pending = [];
  const server = http.createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      const body = chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks);
      const i = body.indexOf(ID_MARK);
      const id = i < 0 ? '' : body.toString('latin1', i + ID_MARK.length, i + ID_MARK.length + ID_LEN);
      pending.push([id, String(req.headers['x-relay-event-id'] || ''), at]);
      res.writeHead(200, { 'content-length': '2' }).end('ok');
    });
  });
  server.keepAliveTimeout = 65000;
  const flush = () => {
    if (pending.length === 0) return;
    send({ type: 'arrivals', items: pending });
    pending = [];
  };
  setInterval(flush, 200);
  process.on('message', (/** @type {{ type?: string }} */ m) => {
    if (m.type !== 'flush') return;
    flush();
    send({ type: 'flushed' });
  });
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => send({ type: 'listening', port: portOf(server) }));
}

/**
 * The bench side of the receiver: every first arrival by event id, and the duplicates.
 * @returns {Promise<Receiver>}
 */
function startReceiver() {
  const forked = fork(__filename, ['--receiver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const child = Object.assign(forked, {
    exited: new Promise((/** @type {(code: number | null) => void} */ resolve) => forked.once('exit', resolve)),
  });
  /** @type {() => void} */
  let flushed = () => undefined;
  /** @type {Receiver} */
  const state = {
    child,
    port: 0,
    byEvent: new Map(),
    byId: new Map(),
    order: [],
    duplicates: 0,
    unknown: 0,
    flush: () =>
      new Promise((resolve) => {
        flushed = () => resolve();
        child.send({ type: 'flush' });
      }),
  };
  child.on('message', (/** @type {ReceiverMessage} */ m) => {
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
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receiver exited (${code})`)));
    child.once('message', (/** @type {ReceiverMessage} */ m) => {
      if (m.type === 'listening') state.port = m.port;
      resolve(state);
    });
  });
}

/**
 * Waits until every id in `accepted` has reached the receiver, or until `deadline`; returns how many have not.
 * @param {Receiver} receiver
 * @param {Iterable<string>} accepted
 * @param {number} deadline
 */
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
