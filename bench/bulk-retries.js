// npm run bench (bulk-retry part): GET /v1/bulk-retries' store path with the `bulk_retries`
// collection at volume, on the real local FerretDB. Preloads BENCH_BULK_DOCS documents (default
// 1,000,000: other accounts' jobs and list places, half each), then times 25 creates and 10
// first pages of 20 for one account, through BulkRetryStore itself (each job with its status,
// as the route shows it). The database is a new one, dropped after.
//
//   node bench/bulk-retries.js        (MONGODB_URL, BENCH_BULK_DOCS, BENCH_RESULTS_DIR)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { connectStore } = require('../libs/store/dist');
const { BulkRetryStore } = require('../services/management-api/dist/adapters/bulk-retry-store');
const { envNumber, percentile } = require('./lib');

const DOCS = Math.max(1000, envNumber(process.env.BENCH_BULK_DOCS, 1_000_000));
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.join(__dirname, '..', 'bench-results');
const PAGE = 20;
const ms = (/** @type {number} */ t) => Number((performance.now() - t).toFixed(1));
const pct = (/** @type {number[]} */ list, /** @type {number} */ p) =>
  percentile(
    [...list].sort((a, b) => a - b),
    p,
  );
const filter = { endpoint_id: null, target_id: null, from_ms: 0, to_ms: 1 };

async function main() {
  const url = new URL(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay');
  url.pathname = `/bench_bulk_${randomBytes(4).toString('hex')}`;
  const store = await connectStore(url.href);
  try {
    const db = store.connection.db;
    if (!db) throw new Error('the store connection has no database');
    // string ids, as the bulk-retry store writes them
    const coll = /** @type {import('mongodb').Collection<{ _id: string } & Record<string, unknown>>} */ (
      /** @type {unknown} */ (db.collection('bulk_retries'))
    );
    const t0 = performance.now();
    for (let i = 0; i < DOCS; i += 10_000) {
      const docs = [];
      for (let k = i; k < Math.min(DOCS, i + 10_000); k++) {
        const account = `acc_f${k % 5000}`;
        const n = Math.floor(k / 5000);
        docs.push(
          k % 2
            ? { _id: `account|${account}|${n}`, job_id: `brj_f${k - 1}` }
            : {
                _id: `brj_f${k}`,
                account_id: account,
                filter,
                rate_per_second: 10,
                created_at: new Date(),
                created_by: 'rk_bench',
                account_slot: n,
              },
        );
      }
      await coll.insertMany(docs, { ordered: false });
    }
    const preloadS = ms(t0) / 1000;
    const jobs = new BulkRetryStore(store);
    const creates = [];
    for (let k = 0; k < 25; k++) {
      const t = performance.now();
      await jobs.create({
        _id: `brj_bench${String(k).padStart(4, '0')}${randomBytes(4).toString('hex')}`,
        account_id: 'acc_bench',
        filter,
        rate_per_second: 10,
        created_at: new Date(),
        created_by: 'rk_bench',
      });
      creates.push(ms(t));
    }
    const pages = [];
    for (let r = 0; r < 10; r++) {
      const t = performance.now();
      const page = await jobs.list('acc_bench', PAGE, null);
      pages.push(ms(t));
      if (page.jobs.length !== PAGE) throw new Error(`a page of ${page.jobs.length} jobs, expected ${PAGE}`);
    }
    const report = {
      bench: 'bulk-retries',
      at: new Date().toISOString(),
      documents: DOCS,
      preload_s: Number(preloadS.toFixed(1)),
      create_p50_ms: pct(creates, 50),
      create_p95_ms: pct(creates, 95),
      list_page: PAGE,
      list_p50_ms: pct(pages, 50),
      list_p95_ms: pct(pages, 95),
    };
    process.stdout.write(
      `\nbulk_retries with ${DOCS} documents (preloaded in ${report.preload_s} s): create p50 ${report.create_p50_ms} ms, p95 ${report.create_p95_ms} ms; a page of ${PAGE} jobs p50 ${report.list_p50_ms} ms, p95 ${report.list_p95_ms} ms\n`,
    );
    process.stdout.write(`${JSON.stringify(report)}\n`);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(RESULTS_DIR, 'bulk-retries.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await store.connection.dropDatabase();
    await store.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench/bulk-retries failed: ${err.stack || err}\n`);
    process.exit(1);
  },
);
