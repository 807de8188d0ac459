// Store probe: which MongoDB operations a MongoDB-wire server (here FerretDB 1.24, SQLite or
// PostgreSQL backend) answers by key/index and which by scanning, measured at a given size.
//
// Against ONE server URL and a scratch database `probe_<random>` it:
//   1. inserts PROBE_ROWS activity-like documents (~500 B BSON, shape of the activity log:
//      _id 'evt_<20 chars>', account_id, endpoint_id (one of 50), received_at, method,
//      source_ip, outcome, reason, status, test, target_count, deliveries:{<id>:{...}}, rev:1)
//      with insertMany of PROBE_BATCH (500..1000) per command, ordered:false, and reports
//      rows/s over the first 10,000 rows and over the last 10,000 rows (around N);
//   2. times each operation PROBE_REPS times (median / p95 / max; every repetition is bounded
//      by PROBE_OP_TIMEOUT_MS and a step stops adding repetitions after PROBE_STEP_BUDGET_MS;
//      a step also stops at its first timeout and reports "timed out"):
//      findOne {_id}, updateOne {_id} $set of a nested field, deleteOne {_id},
//      find {_id:{$in:[10 ids]}}, find {_id, rev}, find {endpoint_id} limit 50,
//      find {account_id} sort {received_at:-1} limit 50, find {received_at:{$gte,$lt}} limit 50,
//      countDocuments {}, and last (it grows the collection) insertMany of 500.
//      Reads carry maxTimeMS = PROBE_OP_TIMEOUT_MS so that FerretDB itself abandons a slow scan
//      (FerretDB 1.24 honours maxTimeMS for find/aggregate only; update/delete ignore it and
//      keep running server-side after a client timeout). Note: on the PostgreSQL backend a
//      find that stops early (limit) returns sooner WITH maxTimeMS than without it, because
//      FerretDB then cancels the PostgreSQL query instead of draining it.
//   3. runs `explain` for each find shape and records FerretDB's filterPushdown / sortPushdown /
//      limitPushdown and a one-line summary of the backend's query plan;
//   4. drops the scratch database (unless PROBE_KEEP=1);
//   5. only with PROBE_MULTI=1: in a second small scratch database `probe_<random>_multi`,
//      sends `delete` commands of 100 and 200 statements and `update` commands of
//      PROBE_MULTI_SIZES statements (each statement matches one existing _id), each with a
//      PROBE_OP_TIMEOUT_MS timeout on its own client. It stops at the first timeout.
//      WARNING: on FerretDB 1.24 a timed-out multi-statement update keeps its backend
//      connections forever (the server does not notice the client going away), which can
//      wedge that database (SQLite) or the whole instance (PostgreSQL). Use a throwaway
//      instance for PROBE_MULTI=1, and restart it afterwards if the report says "wedged".
//
// Run (from the repo root; Node 20, uses the `mongodb` driver from node_modules):
//   PROBE_URL=mongodb://127.0.0.1:27019/ PROBE_ROWS=10000 node bench/store-probe.js
//   PROBE_URL=mongodb://127.0.0.1:27018/ PROBE_ROWS=1000000 PROBE_OUT=/tmp/pg-1m.json \
//     node bench/store-probe.js > /tmp/pg-1m.log 2>&1 &
//
// Environment:
//   PROBE_URL              required, e.g. mongodb://127.0.0.1:27019/ (never point it at data you care about)
//   PROBE_ROWS             documents to insert (default 10000)
//   PROBE_BATCH            documents per insertMany command, 500..1000 (default 1000)
//   PROBE_REPS             repetitions per timed operation (default 50)
//   PROBE_OP_TIMEOUT_MS    timeout of one repetition / command (default 30000)
//   PROBE_STEP_BUDGET_MS   stop adding repetitions to a step after this long (default 60000)
//   PROBE_KEEP=1           keep the scratch database (for disk-size / backend EXPLAIN checks)
//   PROBE_MULTI=1          run the multi-statement update/delete checks (see WARNING above)
//   PROBE_MULTI_SIZES      update statement counts to try, in order (default 10,49,50,99,100)
//   PROBE_OUT              also write the full result as JSON to this file
//   PROBE_LABEL            free-text label copied into the result
// Output: a JSON result on stdout (progress on stderr).
'use strict';
const { randomBytes } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const { MongoClient, BSON } = require('mongodb');

/** @type {(v: string | undefined, d: number) => number} */
const int = (v, d) => (v === undefined || v === '' ? d : Number.parseInt(v, 10));
const cfg = {
  url: process.env.PROBE_URL ?? '',
  rows: int(process.env.PROBE_ROWS, 10000),
  batch: int(process.env.PROBE_BATCH, 1000),
  reps: int(process.env.PROBE_REPS, 50),
  opTimeoutMs: int(process.env.PROBE_OP_TIMEOUT_MS, 30000),
  stepBudgetMs: int(process.env.PROBE_STEP_BUDGET_MS, 60000),
  keep: process.env.PROBE_KEEP === '1',
  multi: process.env.PROBE_MULTI === '1',
  multiSizes: (process.env.PROBE_MULTI_SIZES || '10,49,50,99,100')
    .split(',')
    .map((s) => int(s.trim(), 0))
    .filter((n) => n > 0),
  out: process.env.PROBE_OUT || '',
  label: process.env.PROBE_LABEL || '',
};
if (!cfg.url) {
  console.error('PROBE_URL is required, e.g. PROBE_URL=mongodb://127.0.0.1:27019/ node bench/store-probe.js');
  process.exit(2);
}
if (!(cfg.rows >= 1000 && cfg.rows <= 20_000_000)) throw new Error('PROBE_ROWS must be 1000..20000000');
if (!(cfg.batch >= 1 && cfg.batch <= 100_000)) throw new Error('PROBE_BATCH out of range');

const COLL = 'activity';
const ACCOUNTS = 20;
const ENDPOINTS = 50;
const T0 = Date.UTC(2025, 0, 1);
const log = (/** @type {unknown[]} */ ...a) => console.error(new Date().toISOString(), ...a);

const ALPH = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** @param {number} n */
function rid(n) {
  const b = randomBytes(n);
  let s = '';
  for (let i = 0; i < n; i++) s += ALPH[b[i] % ALPH.length];
  return s;
}
/** @type {<T>(arr: T[]) => T} */
const pick = (arr) => arr[Math.floor(Math.random() * arr.length)];

/**
 * One activity-like document; `seq` orders received_at (one event per second).
 * @param {number} seq
 */
function makeDoc(seq) {
  const ep = seq % ENDPOINTS;
  const account = ep % ACCOUNTS;
  const at = new Date(T0 + seq * 1000);
  const dlv = 'dlv_' + rid(12);
  const ok = seq % 10 !== 0;
  return {
    _id: 'evt_' + rid(20),
    account_id: 'acc_' + String(account).padStart(8, '0'),
    endpoint_id: 'ep_' + String(ep).padStart(8, '0'),
    received_at: at,
    method: 'POST',
    source_ip: `203.0.113.${seq % 250}`,
    outcome: ok ? 'accepted' : 'rejected',
    reason: ok ? null : 'signature verification failed',
    status: ok ? 'completed' : 'errors',
    test: seq % 97 === 0,
    target_count: 1,
    deliveries: {
      [dlv]: {
        delivery_id: dlv,
        target_id: 'tg_' + String(ep).padStart(8, '0'),
        target_kind: 'webhook',
        state: ok ? 'delivered' : 'failed',
        attempts: {
          1: {
            attempt: 1,
            attempted_at: new Date(at.getTime() + 150),
            state: ok ? 'delivered' : 'failed',
            status_code: ok ? 200 : 500,
            duration_ms: 42 + (seq % 300),
            error: ok ? null : 'HTTP 500 from target',
          },
        },
      },
    },
    rev: 1,
  };
}

function jestPids() {
  try {
    return execFileSync('pgrep', ['-f', 'jest'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}
function env() {
  return { jest_running: jestPids().length > 0, loadavg1: Number(os.loadavg()[0].toFixed(2)) };
}

/**
 * Runs fn with a timeout; never throws.
 * @template T
 * @param {() => Promise<T>} fn
 * @param {number} timeoutMs
 * @returns {Promise<{ ok: true; ms: number; value: T } | { ok: false; ms: number; timedOut: boolean; error: string }>}
 */
async function timed(fn, timeoutMs) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const t = process.hrtime.bigint();
  try {
    const value = await Promise.race([
      fn(),
      new Promise((_, rej) => {
        timer = setTimeout(
          () => rej(Object.assign(new Error(`timed out after ${timeoutMs} ms`), { probeTimeout: true })),
          timeoutMs,
        );
      }),
    ]);
    return { ok: true, ms: Number(process.hrtime.bigint() - t) / 1e6, value };
  } catch (e) {
    const error = /** @type {{ probeTimeout?: boolean; message?: string } | null | undefined} */ (e);
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    const isTimeout = Boolean(
      error &&
      (error.probeTimeout || /timed out|timeout|exceeded time limit|MaxTimeMSExpired/i.test(String(error.message))),
    );
    return { ok: false, ms, timedOut: isTimeout, error: String(error && error.message) };
  } finally {
    clearTimeout(timer);
  }
}

/** @param {number[]} ms */
function stats(ms) {
  if (ms.length === 0) return { n: 0 };
  const s = [...ms].sort((a, b) => a - b);
  const q = (/** @type {number} */ p) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  const r = (/** @type {number} */ x) => Number(x.toFixed(2));
  return { n: s.length, median_ms: r(q(0.5)), p95_ms: r(q(0.95)), min_ms: r(s[0]), max_ms: r(s[s.length - 1]) };
}

/**
 * Repeats `fn(i)` up to cfg.reps times within the step budget; stops at the first timeout/error.
 * @param {string} name
 * @param {(i: number) => Promise<unknown>} fn
 */
async function step(name, fn) {
  const before = env();
  /** @type {number[]} */
  const times = [];
  let outcome = 'ok';
  let error;
  let lastValue;
  const started = Date.now();
  for (let i = 0; i < cfg.reps; i++) {
    if (i > 0 && Date.now() - started > cfg.stepBudgetMs) {
      outcome = 'budget';
      break;
    }
    // reads also carry maxTimeMS = cfg.opTimeoutMs, so FerretDB itself stops the query first
    const r = await timed(() => fn(i), cfg.opTimeoutMs + 2000);
    if (!r.ok) {
      outcome = r.timedOut ? 'timed out' : 'error';
      error = r.error;
      break;
    }
    times.push(r.ms);
    lastValue = r.value;
  }
  const res = {
    op: name,
    outcome,
    ...stats(times),
    result_of_last_rep: lastValue,
    ...(error ? { error } : {}),
    env_before: before,
    env_after: env(),
  };
  log(`step ${name}: ${outcome} n=${res.n} median=${res.median_ms} p95=${res.p95_ms} ms`, error || '');
  return res;
}

/**
 * Compact one-line summary of a FerretDB explain queryPlanner (SQLite or PostgreSQL).
 * @param {any} qp the server's explain output, whatever its shape
 */
function planSummary(qp) {
  if (!qp) return '';
  if (Array.isArray(qp.Plan))
    return qp.Plan.map((/** @type {unknown} */ l) => String(l).replace(/^.*detail=/, '')).join(' | ');
  /** @type {string[]} */
  const nodes = [];
  /** @param {any} n */
  const walk = (n) => {
    if (!n || typeof n !== 'object') return;
    if (n['Node Type']) {
      let s = n['Node Type'];
      if (n['Index Name']) s += ` using ${n['Index Name']}`;
      if (n['Relation Name']) s += ` on ${n['Relation Name']}`;
      if (n.Filter) s += ` filter ${n.Filter}`;
      if (n['Index Cond']) s += ` cond ${n['Index Cond']}`;
      nodes.push(s);
    }
    for (const k of Object.keys(n)) if (k === 'Plan' || k === 'Plans') [].concat(n[k]).forEach(walk);
  };
  walk(qp);
  if (nodes.length) return nodes.join(' <- ');
  return JSON.stringify(qp).slice(0, 400);
}

async function main() {
  const dbName = 'probe_' + rid(8);
  const client = new MongoClient(cfg.url, {
    socketTimeoutMS: cfg.opTimeoutMs + 4000,
    serverSelectionTimeoutMS: 10000,
    maxPoolSize: 4,
  });
  await client.connect();
  const db = client.db(dbName);
  const coll = /** @type {import('mongodb').Collection<ReturnType<typeof makeDoc>>} */ (db.collection(COLL));
  /** @type {Record<string, any>} the JSON report, filled step by step */
  const result = {
    label: cfg.label,
    url: cfg.url,
    db: dbName,
    config: { ...cfg },
    started_at: new Date().toISOString(),
    env_start: env(),
  };
  try {
    const ss = await db
      .admin()
      .command({ serverStatus: 1 })
      .catch(() => /** @type {import('mongodb').Document} */ ({}));
    const bi = await db
      .admin()
      .command({ buildInfo: 1 })
      .catch(() => /** @type {import('mongodb').Document} */ ({}));
    result.server = { version: bi.version, ferretdbVersion: ss.ferretdbVersion, host: ss.host };
  } catch {
    /* informational only */
  }
  log(`probe ${dbName} on ${cfg.url}: ${cfg.rows} rows, batch ${cfg.batch}`);

  // ---- 1. inserts ------------------------------------------------------------------------
  const SAMPLE = 5000; // reservoir of {id, dlv} spread uniformly over the whole collection
  /** @type {{ id: string; dlv: string }[]} */
  const sample = [];
  let seq = 0;
  let sizeSum = 0;
  let sizeN = 0;
  const insStart = Date.now();
  /** @type {{ rows: number; seconds: number } | null} */
  let firstWindow = null;
  /** @type {bigint | null} */
  let lastWindowStart = null;
  let lastWindowSeq = 0;
  /** @type {Record<string, unknown>[]} */
  const progress = [];
  let tick = Date.now();
  const lastFrom = Math.max(0, cfg.rows - 10000);
  while (seq < cfg.rows) {
    const n = Math.min(cfg.batch, cfg.rows - seq);
    /** @type {ReturnType<typeof makeDoc>[]} */
    const docs = [];
    for (let i = 0; i < n; i++) {
      const d = makeDoc(seq + i);
      docs.push(d);
      const k = seq + i;
      const entry = { id: d._id, dlv: Object.keys(d.deliveries)[0] };
      if (k < SAMPLE) sample.push(entry);
      else {
        const j = Math.floor(Math.random() * (k + 1));
        if (j < SAMPLE) sample[j] = entry;
      }
      if (k % 997 === 0) {
        sizeSum += BSON.calculateObjectSize(d);
        sizeN++;
      }
    }
    if (seq >= lastFrom && lastWindowStart === null) {
      lastWindowStart = process.hrtime.bigint();
      lastWindowSeq = seq;
    }
    const r = await timed(() => coll.insertMany(docs, { ordered: false }), cfg.opTimeoutMs);
    if (!r.ok) throw new Error(`insertMany at row ${seq} failed: ${r.error}`);
    seq += n;
    if (firstWindow === null && seq >= Math.min(10000, cfg.rows)) {
      firstWindow = { rows: seq, seconds: (Date.now() - insStart) / 1000 };
    }
    if (Date.now() - tick > 30000 || seq === cfg.rows) {
      tick = Date.now();
      const p = { rows: seq, elapsed_s: (Date.now() - insStart) / 1000, ...env() };
      progress.push(p);
      log(`inserted ${seq} rows in ${p.elapsed_s.toFixed(1)} s`, JSON.stringify(env()));
    }
  }
  // both set: the loop ran past lastFrom and past min(10,000, rows)
  const lastSeconds = Number(process.hrtime.bigint() - /** @type {bigint} */ (lastWindowStart)) / 1e9;
  const first = /** @type {{ rows: number; seconds: number }} */ (firstWindow);
  result.insert = {
    rows: cfg.rows,
    batch: cfg.batch,
    avg_bson_bytes: Math.round(sizeSum / sizeN),
    total_s: (Date.now() - insStart) / 1000,
    first_10k_rows_per_s: Math.round(first.rows / first.seconds),
    last_10k_rows_per_s: Math.round((cfg.rows - lastWindowSeq) / lastSeconds),
    overall_rows_per_s: Math.round(cfg.rows / ((Date.now() - insStart) / 1000)),
    progress,
  };
  log('insert', JSON.stringify({ ...result.insert, progress: undefined }));

  // ---- 2. timed operations ---------------------------------------------------------------
  const pool = sample.slice();
  const deletable = pool.splice(0, Math.min(200, Math.floor(pool.length / 4)));
  let delIdx = 0;
  const endpoints = Array.from({ length: ENDPOINTS }, (_, i) => 'ep_' + String(i).padStart(8, '0'));
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => 'acc_' + String(i).padStart(8, '0'));
  const span = cfg.rows * 1000;
  const windowFilter = () => {
    const from = T0 + Math.floor(Math.random() * Math.max(1, span - 3600_000));
    return { received_at: { $gte: new Date(from), $lt: new Date(from + 3600_000) } };
  };
  const ops = [];
  ops.push(
    await step('findOne {_id}', async () =>
      (await coll.findOne({ _id: pick(pool).id }, { maxTimeMS: cfg.opTimeoutMs })) ? 1 : 0,
    ),
  );
  ops.push(
    await step('updateOne {_id} $set nested', async (i) => {
      const e = pick(pool);
      const r = await coll.updateOne({ _id: e.id }, { $set: { [`deliveries.${e.dlv}.state`]: `probe_${i}` } });
      return r.matchedCount;
    }),
  );
  ops.push(
    await step('deleteOne {_id}', async () => {
      const e = deletable[delIdx++ % deletable.length];
      return (await coll.deleteOne({ _id: e.id })).deletedCount;
    }),
  );
  /** @type {Record<string, () => { filter: import('mongodb').Filter<ReturnType<typeof makeDoc>>; sort?: import('mongodb').Sort; limit?: number; singleBatch?: boolean }>} */
  const shapes = {
    'find {_id:{$in:[10 ids]}}': () => ({ filter: { _id: { $in: Array.from({ length: 10 }, () => pick(pool).id) } } }),
    'find {_id, rev}': () => ({ filter: { _id: pick(pool).id, rev: 1 } }),
    'find {endpoint_id} limit 50': () => ({ filter: { endpoint_id: pick(endpoints) }, limit: 50 }),
    'find {account_id} sort received_at:-1 limit 50': () => ({
      filter: { account_id: pick(accounts) },
      sort: { received_at: -1 },
      limit: 50,
    }),
    'find {received_at:{$gte,$lt}} limit 50': () => ({ filter: windowFilter(), limit: 50 }),
  };
  for (const [name, mk] of Object.entries(shapes)) {
    ops.push(
      await step(name, async () => {
        const s = mk();
        let cur = coll.find(s.filter).maxTimeMS(cfg.opTimeoutMs);
        if (s.sort) cur = cur.sort(s.sort);
        if (s.limit) cur = cur.limit(s.limit);
        return (await cur.toArray()).length;
      }),
    );
  }
  ops.push(await step('countDocuments {}', async () => coll.countDocuments({}, { maxTimeMS: cfg.opTimeoutMs })));
  result.ops = ops;

  // ---- 3. explain ------------------------------------------------------------------------
  const explainShapes = {
    'findOne {_id}': () => ({ filter: { _id: pick(pool).id }, limit: 1, singleBatch: true }),
    ...shapes,
    'find {} limit 50 (no filter)': () => ({ filter: {}, limit: 50 }),
  };
  result.explain = [];
  for (const [name, mk] of Object.entries(explainShapes)) {
    const s = mk();
    const r = await timed(
      () => db.command({ explain: { find: COLL, ...s }, verbosity: 'queryPlanner' }),
      cfg.opTimeoutMs,
    );
    const e = r.ok ? r.value : {};
    const row = r.ok
      ? {
          shape: name,
          filterPushdown: e.filterPushdown,
          sortPushdown: e.sortPushdown,
          limitPushdown: e.limitPushdown,
          plan: planSummary(e.queryPlanner),
          queryPlanner: e.queryPlanner,
        }
      : { shape: name, error: r.error };
    result.explain.push(row);
    log(
      `explain ${name}: filter=${row.filterPushdown} sort=${row.sortPushdown} limit=${row.limitPushdown} plan=${row.plan}`,
    );
  }

  // ---- sizes (before the insertMany step, i.e. at ~N documents) ---------------------------
  const st = await timed(() => db.command({ dbStats: 1, scale: 1 }), cfg.opTimeoutMs);
  result.dbStats = st.ok ? st.value : { error: st.error };
  const cs = await timed(() => db.command({ collStats: COLL, scale: 1 }), cfg.opTimeoutMs);
  result.collStats = cs.ok
    ? {
        count: cs.value.count,
        size: cs.value.size,
        storageSize: cs.value.storageSize,
        totalIndexSize: cs.value.totalIndexSize,
        totalSize: cs.value.totalSize,
        indexSizes: cs.value.indexSizes,
      }
    : { error: cs.error };

  // ---- insertMany last: it grows the collection by up to PROBE_REPS x 500 documents --------
  let extra = cfg.rows;
  ops.push(
    await step('insertMany 500 (ordered:false)', async () => {
      const docs = [];
      for (let i = 0; i < 500; i++) docs.push(makeDoc(extra++));
      return (await coll.insertMany(docs, { ordered: false })).insertedCount;
    }),
  );

  // ---- 4. drop ---------------------------------------------------------------------------
  if (cfg.keep) {
    result.dropped = false;
    log(`kept database ${dbName} (PROBE_KEEP=1)`);
  } else {
    const d = await timed(() => db.dropDatabase(), cfg.opTimeoutMs);
    result.dropped = d.ok ? true : d.error;
  }
  await client.close(true);

  // ---- 5. multi-statement update / delete --------------------------------------------------
  if (cfg.multi) result.multi = await multiStatement(dbName + '_multi');

  result.finished_at = new Date().toISOString();
  result.env_end = env();
  return result;
}

/**
 * update/delete commands with many statements, each on its own client, stopping at the first timeout.
 * @param {string} dbName
 */
async function multiStatement(dbName) {
  /** @type {{ db: string; tests: Record<string, unknown>[]; dropped?: true | string; wedged?: boolean }} */
  const out = { db: dbName, tests: [] };
  const setup = new MongoClient(cfg.url, { socketTimeoutMS: cfg.opTimeoutMs, serverSelectionTimeoutMS: 10000 });
  await setup.connect();
  const docs = Array.from({ length: 600 }, (_, i) => makeDoc(i));
  await /** @type {import('mongodb').Collection<ReturnType<typeof makeDoc>>} */ (
    setup.db(dbName).collection(COLL)
  ).insertMany(docs, { ordered: false });
  await setup.close(true);
  const ids = docs.map((d) => ({ id: d._id, dlv: Object.keys(d.deliveries)[0] }));
  const del = ids.slice(0, 300);
  const upd = ids.slice(300);
  const plan = [
    {
      kind: 'delete',
      n: 100,
      cmd: () => ({
        delete: COLL,
        deletes: del.slice(0, 100).map((e) => ({ q: { _id: e.id }, limit: 1 })),
        ordered: false,
      }),
    },
    {
      kind: 'delete',
      n: 200,
      cmd: () => ({
        delete: COLL,
        deletes: del.slice(100, 300).map((e) => ({ q: { _id: e.id }, limit: 1 })),
        ordered: false,
      }),
    },
    ...cfg.multiSizes.map((n) => ({
      kind: 'update',
      n,
      cmd: () => ({
        update: COLL,
        updates: upd
          .slice(0, n)
          .map((e, i) => ({ q: { _id: e.id }, u: { $set: { [`deliveries.${e.dlv}.state`]: `multi_${n}_${i}` } } })),
        ordered: false,
      }),
    })),
  ];
  let wedged = false;
  for (const t of plan) {
    const name = `${t.kind} command, ${t.n} statements (each matches 1 existing _id)`;
    if (wedged) {
      out.tests.push({ test: name, outcome: 'not run (a previous command timed out)' });
      continue;
    }
    if (t.kind === 'update' && t.n > upd.length) throw new Error('PROBE_MULTI_SIZES too large');
    const c = new MongoClient(cfg.url, {
      socketTimeoutMS: cfg.opTimeoutMs + 2000,
      serverSelectionTimeoutMS: 10000,
      maxPoolSize: 1,
    });
    await c.connect();
    const before = env();
    const r = await timed(() => c.db(dbName).command(t.cmd()), cfg.opTimeoutMs);
    await c.close(true).catch(() => {});
    /** @type {{ test: string; outcome: string; ms: number; env: ReturnType<typeof env>; n?: number; nModified?: number; error?: string }} */
    const row = {
      test: name,
      outcome: r.ok ? 'ok' : r.timedOut ? `timed out (no reply in ${cfg.opTimeoutMs} ms)` : 'error',
      ms: Number(r.ms.toFixed(1)),
      env: before,
    };
    if (r.ok) Object.assign(row, { n: r.value.n, nModified: r.value.nModified });
    else row.error = r.error;
    out.tests.push(row);
    log(
      `multi ${name}: ${row.outcome} ${row.ms} ms`,
      r.ok ? JSON.stringify({ n: row.n, nModified: row.nModified }) : row.error,
    );
    if (!r.ok && r.timedOut) wedged = true;
  }
  const c = new MongoClient(cfg.url, { socketTimeoutMS: 15000, serverSelectionTimeoutMS: 10000 });
  await c.connect();
  const d = await timed(() => c.db(dbName).dropDatabase(), 15000);
  await c.close(true).catch(() => {});
  out.dropped = d.ok ? true : d.error;
  out.wedged = wedged;
  if (!d.ok) log(`could not drop ${dbName} (${d.error}); restart this FerretDB instance, then drop it`);
  return out;
}

main().then(
  (res) => {
    const json = JSON.stringify(res, null, 2);
    if (cfg.out) fs.writeFileSync(cfg.out, json + '\n');
    console.log(json);
    process.exit(0);
  },
  (err) => {
    console.error('probe failed:', err);
    process.exit(1);
  },
);
