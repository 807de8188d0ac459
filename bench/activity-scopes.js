// The activity writer's cost per flush as its rows spread over more scopes: the
// same flushes of BENCH_SCOPE_ROWS rows (default 1,000, a full flush under load) written through
// the log's own flush code into the real local FerretDB, with the rows spread over 1, 100, 1,000
// and 10,000 endpoints (10 per account, so a tenth as many accounts) from as many source
// addresses. Prints, per spread: ms per flush (wall), the writer's CPU ms per flush (this
// process) and, where `scripts/infra.sh up` runs the store in this checkout, FerretDB +
// PostgreSQL CPU ms per flush, with the index documents written per flush, and what the flush
// sent the store (the driver's command monitoring): commands, documents and statements per flush
// by command (insert, update, find) and by collection (rows, index, directory, payloads), with
// the time those commands took.
//
//   BENCH_DURATION_S=3 node bench/activity-scopes.js   # short mode: 5 flushes per spread, spreads 1 and 100
'use strict';
const { randomBytes } = require('node:crypto');
const { ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1, timedId } = require('@relay/contracts');
const mongoose = require('mongoose');
// the log's own flush code, below its surface (@relay/activity-log keeps it to itself)
const { createActivityWriter } = require('../libs/activity-log/dist/writing/flush');
const { LogCollections } = require('../libs/activity-log/dist/storage/internal');
const { infraPids, sampleOf, writeResults } = require('./lib');

const SHORT = Number(process.env.BENCH_DURATION_S || 0) > 0 && Number(process.env.BENCH_DURATION_S) <= 5;
/** @type {(v: string | undefined, def: number, min: number, max: number) => number} */
const bounded = (v, def, min, max) => Math.max(min, Math.min(max, Number(v) || def));
const ROWS = bounded(process.env.BENCH_SCOPE_ROWS, 1000, 10, 10_000);
const FLUSHES = bounded(process.env.BENCH_SCOPE_FLUSHES, SHORT ? 5 : 30, 1, 1000);
const SPREADS = (process.env.BENCH_SCOPE_SPREADS || (SHORT ? '1,100' : '1,100,1000,10000'))
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n >= 1);
const base = process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay';
const database = `bench_scopes_${randomBytes(3).toString('hex')}`;
/**
 * BENCH_SCOPE_COLD=1: the writer starts 5 s into the hour it writes (a process start or a
 * partition taken over), so it probes each scope's page count once that hour. By default it has
 * run since before the hour, as a writer does in steady state.
 */
const COLD = process.env.BENCH_SCOPE_COLD === '1';
const HOUR_MS = 3_600_000;

/**
 * Counts of what the flushes sent the store, by `<command> <collection kind>` (`insert ix`).
 * @typedef {{ commands: number; items: number; ms: number }} CommandCount
 */

/** @param {string} name a collection's name @returns {string} */
const kindOf = (name) => (/^activity_([a-z]+?)(?:_\d+)?$/.exec(name)?.[1] ?? 'other').replace(/^ix.*/, 'ix');

/**
 * Counts every command the connection sends while `on` says so (the driver's command monitoring).
 * @param {import('mongodb').MongoClient} client
 */
function countCommands(client) {
  /** @type {Map<string, CommandCount>} */
  const counts = new Map();
  /** @type {Map<number, { key: string; at: number }>} */
  const open = new Map();
  const state = { on: false };
  client.on('commandStarted', (ev) => {
    if (!state.on || !['insert', 'update', 'find', 'delete'].includes(ev.commandName)) return;
    const cmd = /** @type {Record<string, unknown>} */ (ev.command);
    const key = `${ev.commandName} ${kindOf(String(cmd[ev.commandName]))}`;
    const items =
      ev.commandName === 'insert'
        ? /** @type {unknown[]} */ (cmd.documents).length
        : ev.commandName === 'update'
          ? /** @type {unknown[]} */ (cmd.updates).length
          : ev.commandName === 'delete'
            ? /** @type {unknown[]} */ (cmd.deletes).length
            : 1;
    const c = counts.get(key) ?? { commands: 0, items: 0, ms: 0 };
    counts.set(key, c);
    c.commands += 1;
    c.items += items;
    open.set(ev.requestId, { key, at: performance.now() });
  });
  /** @param {{ requestId: number }} ev */
  const done = (ev) => {
    const o = open.get(ev.requestId);
    if (!o) return;
    open.delete(ev.requestId);
    const c = counts.get(o.key);
    if (c) c.ms += performance.now() - o.at;
  };
  client.on('commandSucceeded', done);
  client.on('commandFailed', done);
  return {
    state,
    /** @param {number} flushes @returns {Record<string, CommandCount>} per flush */
    take(flushes) {
      /** @type {Record<string, CommandCount>} */
      const out = {};
      for (const [key, c] of [...counts].sort())
        out[key] = {
          commands: round(c.commands / flushes),
          items: round(c.items / flushes),
          ms: round(c.ms / flushes),
        };
      counts.clear();
      return out;
    },
  };
}

/** @param {number} n */
const round = (n) => Number(n.toFixed(1));

/**
 * @param {number} i
 * @param {number} spread
 * @param {number} at
 * @returns {import('../libs/activity-log/dist/writing/hold').EventGroup<unknown>}
 */
function eventOf(i, spread, at) {
  const e = i % spread;
  // scopes of their own per spread: a spread's writer starts knowing nothing of the others'
  const account = `acc_s${spread}_${Math.floor(e / 10)}`;
  const endpoint = `ep_s${spread}_${e}`;
  const receivedAt = new Date(at).toISOString();
  const id = timedId('evt', at, `s${i}${randomBytes(3).toString('hex')}`);
  /** @type {import('@relay/contracts').ActivityRequestV1} */
  const request = {
    type: ACTIVITY_REQUEST_V1,
    event_id: id,
    account_id: account,
    endpoint_id: endpoint,
    received_at: receivedAt,
    method: 'POST',
    source_ip: `10.${(e >> 16) & 255}.${(e >> 8) & 255}.${e & 255}`,
    outcome: 'ACCEPTED',
    reason: null,
    target_count: 1,
    test: false,
  };
  /** @type {import('@relay/contracts').ActivityAttemptV1} */
  const attempt = {
    type: ACTIVITY_ATTEMPT_V1,
    event_id: id,
    delivery_id: `dlv_${id}`,
    account_id: account,
    endpoint_id: endpoint,
    target_id: 'tg_s',
    target_kind: 'webhook',
    attempt: 1,
    attempted_at: receivedAt,
    state: 'delivered',
    status_code: 200,
    duration_ms: 5,
    error: null,
    next_attempt_at: null,
  };
  return { event_id: id, request, attempts: [attempt], tokens: [], oldest_ms: at };
}

async function main() {
  const connection = mongoose.createConnection(base.replace(/\/[^/]*$/, `/${database}`), {
    serverSelectionTimeoutMS: 5000,
    monitorCommands: true,
  });
  await connection.asPromise();
  const commands = countCommands(connection.getClient());
  const pids = infraPids();
  /** @type {Record<string, unknown>[]} */
  const results = [];
  try {
    // each spread writes an hour of its own, from 5 s into it: the next hours' partitions
    const firstHour = Math.ceil(Date.now() / HOUR_MS) * HOUR_MS;
    for (const [si, spread] of SPREADS.entries()) {
      const t0 = firstHour + si * HOUR_MS + 5_000;
      // a writer as the service runs it: sparse scopes' pages held (ACTIVITY_INDEX_WAIT_MS 10 s)
      const writer = createActivityWriter(new LogCollections(connection), {
        indexWaitMs: 10_000,
        indexMaxWaitMs: 30_000,
      });
      // in steady state the writer has been writing since before the hour (an idle flush then)
      if (!COLD) await writer.write({ events: [], folds: [] }, { now: t0 - 120_000, flush: 0 });
      const ix = () =>
        /** @type {import('mongodb').Db} */ (connection.db)
          .collection(`activity_ix_${new Date(t0).toISOString().slice(0, 13).replace(/[-T]/g, '')}`)
          .estimatedDocumentCount()
          .catch(() => 0);
      const ixBefore = await ix();
      const storeBefore = pids.store ? sampleOf(pids.store) : null;
      const cpuBefore = process.cpuUsage();
      commands.state.on = true;
      let slowest = 0;
      const started = performance.now();
      // one flush a second of writer clock, as under load; real time as fast as the store goes
      for (let f = 0; f < FLUSHES; f++) {
        const at = t0 + f * 1000;
        const events = Array.from({ length: ROWS }, (_, k) => eventOf(f * ROWS + k, spread, at));
        const one = performance.now();
        await writer.write({ events, folds: [] }, { now: at, flush: f + 1 });
        slowest = Math.max(slowest, performance.now() - one);
      }
      const wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      commands.state.on = false;
      const sent = commands.take(FLUSHES);
      const total = Object.values(sent).reduce(
        (a, c) => ({ commands: a.commands + c.commands, items: a.items + c.items }),
        { commands: 0, items: 0 },
      );
      const storeAfter = pids.store ? sampleOf(pids.store) : null;
      const ixDocs = (await ix()) - ixBefore;
      const r = {
        endpoints: spread,
        accounts: Math.ceil(spread / 10),
        flushes: FLUSHES,
        rows_per_flush: ROWS,
        ms_per_flush: Number((wallMs / FLUSHES).toFixed(1)),
        slowest_flush_ms: round(slowest),
        writer_cpu_ms_per_flush: Number(((cpu.user + cpu.system) / 1000 / FLUSHES).toFixed(1)),
        store_cpu_ms_per_flush:
          storeBefore && storeAfter
            ? Number((((storeAfter.cpu_s - storeBefore.cpu_s) * 1000) / FLUSHES).toFixed(1))
            : null,
        index_documents_per_flush: Number((ixDocs / FLUSHES).toFixed(1)),
        store_commands_per_flush: round(total.commands),
        /** documents inserted, update statements, finds */
        store_items_per_flush: round(total.items),
        /** by `<command> <collection>` (rows, ix: index pages, dir: day directories, payloads): commands, items, ms per flush */
        sent_per_flush: sent,
      };
      process.stderr.write(`  ${JSON.stringify(r)}\n`);
      results.push(r);
    }
    const report = {
      bench: 'activity-scopes',
      at: new Date().toISOString(),
      writer: COLD ? 'started 5 s into the hour' : 'running since before the hour',
      results,
    };
    console.log(
      `\nactivity writer per flush of ${ROWS} rows (writer ${report.writer}), by how many endpoints (and a tenth as many accounts, as many addresses) the rows spread over`,
    );
    for (const r of results) {
      console.log(
        `  ${String(r.endpoints).padStart(6)} endpoints  ${String(r.ms_per_flush).padStart(8)} ms/flush (slowest ${r.slowest_flush_ms})   writer CPU ${String(r.writer_cpu_ms_per_flush).padStart(7)} ms   store CPU ${String(r.store_cpu_ms_per_flush ?? 'n/a').padStart(7)} ms   store commands ${String(r.store_commands_per_flush).padStart(6)} (${r.store_items_per_flush} documents/statements/finds)   index docs ${r.index_documents_per_flush}`,
      );
      for (const [key, c] of Object.entries(/** @type {Record<string, CommandCount>} */ (r.sent_per_flush)))
        console.log(
          `           ${key.padEnd(16)} ${String(c.commands).padStart(7)} commands ${String(c.items).padStart(8)} items ${String(c.ms).padStart(8)} ms`,
        );
    }
    console.log(JSON.stringify(report));
    writeResults('activity-scopes', report);
  } finally {
    if (!process.env.BENCH_KEEP_DB) await connection.dropDatabase().catch(() => undefined);
    await connection.close();
  }
}

main().catch((err) => {
  console.error(`bench/activity-scopes failed: ${err.stack || err}`);
  process.exit(1);
});
