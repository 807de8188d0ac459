// The activity writer's cost per flush as its rows spread over more scopes (issue 29 item 3): the
// same flushes of BENCH_SCOPE_ROWS rows (default 1,000, a full flush under load) written through
// the log's own flush code into the real local FerretDB, with the rows spread over 1, 100, 1,000
// and 10,000 endpoints (10 per account, so a tenth as many accounts) from as many source
// addresses. Prints, per spread: ms per flush (wall), the writer's CPU ms per flush (this
// process) and, where `scripts/infra.sh up` runs the store in this checkout, FerretDB +
// PostgreSQL CPU ms per flush, with the index documents written per flush.
//
//   BENCH_DURATION_S=3 node bench/activity-scopes.js   # short mode: 5 flushes per spread, spreads 1 and 100
'use strict';
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1, timedId } = require('@relay/contracts');
const { connectStore } = require('@relay/store');
// the log's own flush code, below its surface (@relay/activity-log keeps it to itself)
const { createActivityWriter } = require('../libs/activity-log/dist/writing/flush');
const { LogCollections } = require('../libs/activity-log/dist/storage/internal');
const { infraPids, sampleOf } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const SHORT = Number(process.env.BENCH_DURATION_S || 0) > 0 && Number(process.env.BENCH_DURATION_S) <= 5;
const bounded = (v, def, min, max) => Math.max(min, Math.min(max, Number(v) || def));
const ROWS = bounded(process.env.BENCH_SCOPE_ROWS, 1000, 10, 10_000);
const FLUSHES = bounded(process.env.BENCH_SCOPE_FLUSHES, SHORT ? 5 : 30, 1, 1000);
const SPREADS = (process.env.BENCH_SCOPE_SPREADS || (SHORT ? '1,100' : '1,100,1000,10000')).split(',').map(Number).filter((n) => Number.isInteger(n) && n >= 1);
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.join(ROOT, 'bench-results');
const base = process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay';
const database = `bench_scopes_${randomBytes(3).toString('hex')}`;

function eventOf(i, spread, at) {
  const e = i % spread;
  const account = `acc_s${Math.floor(e / 10)}`;
  const endpoint = `ep_s${e}`;
  const receivedAt = new Date(at).toISOString();
  const id = timedId('evt', at, `s${i}${randomBytes(3).toString('hex')}`);
  const request = { type: ACTIVITY_REQUEST_V1, event_id: id, account_id: account, endpoint_id: endpoint, received_at: receivedAt, method: 'POST', source_ip: `10.${(e >> 16) & 255}.${(e >> 8) & 255}.${e & 255}`, outcome: 'ACCEPTED', reason: null, target_count: 1, test: false };
  const attempt = { type: ACTIVITY_ATTEMPT_V1, event_id: id, delivery_id: `dlv_${id}`, account_id: account, endpoint_id: endpoint, target_id: 'tg_s', target_kind: 'webhook', attempt: 1, attempted_at: receivedAt, state: 'delivered', status_code: 200, duration_ms: 5, error: null, next_attempt_at: null };
  return { event_id: id, request, attempts: [attempt], tokens: [], oldest_ms: at };
}

async function main() {
  const store = await connectStore(base.replace(/\/[^/]*$/, `/${database}`));
  const pids = infraPids();
  const results = [];
  try {
    for (const spread of SPREADS) {
      // a writer as the service runs it: sparse scopes' pages held (ACTIVITY_INDEX_WAIT_MS 10 s)
      const writer = createActivityWriter(new LogCollections(store.connection), { indexWaitMs: 10_000, indexMaxWaitMs: 30_000 });
      const ix = () => store.connection.db.collection(`activity_ix_${new Date().toISOString().slice(0, 13).replace(/[-T]/g, '')}`).estimatedDocumentCount().catch(() => 0);
      const ixBefore = await ix();
      const storeBefore = pids.store ? sampleOf(pids.store) : null;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      // one flush a second of writer clock, as under load; real time as fast as the store goes
      const t0 = Date.now();
      for (let f = 0; f < FLUSHES; f++) {
        const at = t0 + f * 1000;
        const events = Array.from({ length: ROWS }, (_, k) => eventOf(f * ROWS + k, spread, at));
        await writer.write({ events, folds: [] }, { now: at, flush: f + 1 });
      }
      const wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const storeAfter = pids.store ? sampleOf(pids.store) : null;
      const ixDocs = (await ix()) - ixBefore;
      const r = {
        endpoints: spread,
        accounts: Math.ceil(spread / 10),
        flushes: FLUSHES,
        rows_per_flush: ROWS,
        ms_per_flush: Number((wallMs / FLUSHES).toFixed(1)),
        writer_cpu_ms_per_flush: Number(((cpu.user + cpu.system) / 1000 / FLUSHES).toFixed(1)),
        store_cpu_ms_per_flush: storeBefore && storeAfter ? Number((((storeAfter.cpu_s - storeBefore.cpu_s) * 1000) / FLUSHES).toFixed(1)) : null,
        index_documents_per_flush: Number((ixDocs / FLUSHES).toFixed(1)),
      };
      process.stderr.write(`  ${JSON.stringify(r)}\n`);
      results.push(r);
    }
    const report = { bench: 'activity-scopes', at: new Date().toISOString(), results };
    console.log(`\nactivity writer per flush of ${ROWS} rows, by how many endpoints (and a tenth as many accounts, as many addresses) the rows spread over`);
    for (const r of results) console.log(`  ${String(r.endpoints).padStart(6)} endpoints  ${String(r.ms_per_flush).padStart(8)} ms/flush   writer CPU ${String(r.writer_cpu_ms_per_flush).padStart(7)} ms   store CPU ${String(r.store_cpu_ms_per_flush ?? 'n/a').padStart(7)} ms   index docs ${r.index_documents_per_flush}`);
    console.log(JSON.stringify(report));
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(RESULTS_DIR, 'activity-scopes.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    if (!process.env.BENCH_KEEP_DB) await store.connection.dropDatabase().catch(() => undefined);
    await store.close();
  }
}

main().catch((err) => {
  console.error(`bench/activity-scopes failed: ${err.stack || err}`);
  process.exit(1);
});
