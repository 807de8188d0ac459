// npm run bench (activity search part): the activity API's searches with the
// log at 1,000,000 rows (BENCH_ACTIVITY_ROWS), on the real local FerretDB, through the
// management-api process as `npm start` runs it. Needs the local infra running (scripts/bench.sh
// starts it; alone: npm run infra:up).
//
//  1. preload the rows through the activity-writer's own code (createActivityWriter, 2,000 a
//     batch), spread over the BENCH_SPAN_DAYS (7) that end an hour ago, 50 endpoints: 5 % refused
//     AUTH_FAILED, 1 % UNSUPPORTED_MEDIA_TYPE (a reason that does not say "media type"), 2 % a
//     delivery that failed with HTTP 500 or 503, the rest delivered with 200; every accepted
//     row of the last 24 hours with its payload kept, as the gateway keeps it for resends;
//  2. once the machine is quiet, BENCH_QUERY_RUNS calls (30) of each search with limit 50, every
//     third following the cursor of the one before ("Search older"): p50/p95; then the detail
//     routes of one row (`GET /v1/activity/:id`, `…/:id/request`), as many calls each.
// Prints a table and one JSON line; writes bench-results/activity-search.json
// (BENCH_RESULTS_DIR).
'use strict';
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { timedId, ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1 } = require('@relay/contracts');
const { connectStore, insertEndpoint } = require('@relay/store');
// the log's own flush code, below its surface (@relay/activity-log keeps it to itself)
const { createActivityWriter } = require('../libs/activity-log/dist/writing/flush');
const { LogCollections } = require('../libs/activity-log/dist/storage/internal');
const {
  freePort,
  machineCpu,
  machineWindow,
  percentile,
  startProcess,
  timeActivityQueries,
  waitFor,
  waitQuiet,
} = require('./lib');

const ROOT = path.resolve(__dirname, '..');
/** @type {(v: string | undefined, def: number, min: number, max: number) => number} */
const bounded = (v, def, min, max) => Math.max(min, Math.min(max, Number(v) || def));
const ROWS = bounded(process.env.BENCH_ACTIVITY_ROWS, 1_000_000, 1000, 5_000_000);
const QUERY_RUNS = bounded(process.env.BENCH_QUERY_RUNS, 30, 3, 500);
const BATCH = 2000;
// the days the rows are spread over, ending an hour ago; a search reads 24 hours of them at most
const SPAN_DAYS = bounded(process.env.BENCH_SPAN_DAYS, 7, 1, 30);
// how long to wait for a quiet machine before timing (the smoke test shortens it on its busy machine)
const QUIET_MAX_S = bounded(process.env.BENCH_QUIET_MAX_S, 60, 1, 600);
const DAY_MS = 86_400_000;
const CUSTOMERS = 5000;
const mongoBase = process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay';
const namespace = `bench_search_${randomBytes(3).toString('hex')}`;
const mongodbUrl = mongoBase.replace(/\/[^/]*$/, `/${namespace}`);
const ENDPOINTS = Array.from({ length: 50 }, (_, i) => `ep_bench${String(i).padStart(2, '0')}`);

/**
 * Deterministic pseudo-random numbers: every run preloads the same log.
 * @param {number} seed
 */
function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * One row: its request record, its attempts and, when it is accepted and recent, its payload.
 * @param {string} accountId
 * @param {number} i
 * @param {number} receivedMs
 * @param {number} r
 * @param {boolean} keepPayload
 */
function rowOf(accountId, i, receivedMs, r, keepPayload) {
  const receivedAt = new Date(receivedMs).toISOString();
  const eventId = timedId('evt', receivedMs, `s${i}${randomBytes(4).toString('hex')}`);
  const endpoint = ENDPOINTS[i % ENDPOINTS.length];
  /** @type {import('@relay/contracts').ActivityRequestV1} */
  const request = {
    type: ACTIVITY_REQUEST_V1,
    event_id: eventId,
    account_id: accountId,
    endpoint_id: endpoint,
    received_at: receivedAt,
    method: 'POST',
    source_ip: `198.51.${i % 4}.${i % 250}`,
    outcome: 'ACCEPTED',
    reason: null,
    target_count: 1,
    test: false,
  };
  if (r < 0.05) Object.assign(request, { outcome: 'AUTH_FAILED', reason: 'invalid bearer token', target_count: 0 });
  else if (r < 0.06)
    Object.assign(request, {
      outcome: 'UNSUPPORTED_MEDIA_TYPE',
      reason: 'Content-Type text/plain is not accepted',
      target_count: 0,
    });
  const failed = r > 0.98;
  /** @type {import('@relay/contracts').ActivityAttemptV1[]} */
  const attempts =
    request.target_count === 0
      ? []
      : [
          {
            type: ACTIVITY_ATTEMPT_V1,
            event_id: eventId,
            delivery_id: `dlv_${eventId}_tg1`,
            account_id: accountId,
            endpoint_id: endpoint,
            target_id: 'tg_bench',
            target_kind: 'webhook',
            attempt: 1,
            attempted_at: receivedAt,
            state: failed ? 'failed' : 'delivered',
            status_code: failed ? (i % 2 ? 500 : 503) : 200,
            duration_ms: 12,
            error: failed ? `HTTP ${i % 2 ? 500 : 503}` : null,
            next_attempt_at: null,
          },
        ];
  const body = JSON.stringify({
    order: i,
    customer: `cust_${String(i % CUSTOMERS).padStart(4, '0')}`,
    items: [{ sku: `sku_${i % 97}`, qty: 1 + (i % 3) }],
  });
  const payload =
    keepPayload && request.outcome === 'ACCEPTED'
      ? {
          event_id: eventId,
          account_id: accountId,
          endpoint_id: endpoint,
          received_at: receivedAt,
          request: {
            method: 'POST',
            source_ip: request.source_ip,
            headers: { 'content-type': 'application/json' },
            query: '',
          },
          payload: { content_type: 'application/json', body_base64: Buffer.from(body).toString('base64') },
        }
      : null;
  /** @type {import('../libs/activity-log/dist/writing/hold').EventGroup<unknown>} */
  const event = { event_id: eventId, request, attempts, tokens: [], oldest_ms: 0 };
  return { event, payload };
}

/**
 * @param {import('@relay/store').Store} store
 * @param {string} accountId
 */
async function preload(store, accountId) {
  const writer = createActivityWriter(new LogCollections(store.connection));
  const random = rng(27);
  const end = Date.now() - 3_600_000;
  const start = end - SPAN_DAYS * DAY_MS;
  const started = performance.now();
  let payloads = 0;
  for (let done = 0; done < ROWS;) {
    const n = Math.min(BATCH, ROWS - done);
    /** @type {import('../libs/activity-log/dist/writing/hold').EventGroup<unknown>[]} */
    const events = [];
    /** @type {NonNullable<ReturnType<typeof rowOf>['payload']>[]} */
    const kept = [];
    for (let k = 0; k < n; k++) {
      const i = done + k;
      const receivedMs = start + Math.floor((i / ROWS) * (end - start));
      const { event, payload } = rowOf(accountId, i, receivedMs, random(), receivedMs > Date.now() - DAY_MS);
      events.push(event);
      if (payload) kept.push(payload);
    }
    await writer.write(
      { events, folds: [], payloads: kept },
      {
        now: Date.parse(
          /** @type {import('@relay/contracts').ActivityRequestV1} */ (events[events.length - 1].request).received_at,
        ),
        flush: done / BATCH + 1,
      },
    );
    payloads += kept.length;
    done += n;
    if (done % 100_000 < BATCH)
      process.stderr.write(
        `  preloaded ${done} rows, ${payloads} payloads (${Math.round(done / ((performance.now() - started) / 1000))} rows/s)\n`,
      );
  }
  return { rows: ROWS, payloads, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
}

/** @type {[string, string][]} */
const SEARCHES = [
  ['error text, a label ("Media Type")', 'error=Media%20Type'],
  ['error text, a reason ("bearer")', 'error=bearer'],
  ['payload, 1 customer of 5,000', 'payload=cust_0042'],
  ['payload, every row ("order")', 'payload=%22order%22'],
  ['payload + endpoint', `payload=cust_0042&endpoint_id=${ENDPOINTS[42]}`],
  ['response status 503', 'response_status=503'],
  ['response status 5xx', 'response_status=5xx'],
  ['response status 2xx', 'response_status=2xx'],
  ['payload + response status', 'payload=cust_0042&response_status=5xx'],
];

/**
 * p50/p95 of `runs` calls of each search; every third follows the previous call's cursor ("Search older").
 * @param {number} apiPort
 * @param {string} apiKey
 */
async function timeSearches(apiPort, apiKey) {
  return (await timeActivityQueries(apiPort, apiKey, SEARCHES, QUERY_RUNS)).map(({ name, mean_rows, ...t }) => ({
    search: name,
    ...t,
    mean_rows_per_call: mean_rows,
  }));
}

/**
 * p50/p95 of the detail routes of one row: `GET /v1/activity/:id` (deliveries
 * with their targets' names) and `GET /v1/activity/:id/request` (the kept request), for
 * `QUERY_RUNS` accepted rows of the last day.
 * @param {number} apiPort
 * @param {string} apiKey
 */
async function timeDetail(apiPort, apiKey) {
  const headers = { authorization: `Bearer ${apiKey}` };
  const listed = /** @type {{ data: { id: string }[] }} */ (
    await (
      await fetch(`http://127.0.0.1:${apiPort}/v1/activity?payload=%22order%22&limit=${Math.min(50, QUERY_RUNS)}`, {
        headers,
      })
    ).json()
  );
  const ids = listed.data.map((r) => r.id);
  if (ids.length === 0) throw new Error('no accepted rows with a payload to open');
  const results = [];
  for (const [name, suffix] of [
    ['one row (GET /v1/activity/:id)', ''],
    ['its request (GET …/:id/request)', '/request'],
  ]) {
    const times = [];
    for (let run = 0; run < QUERY_RUNS; run++) {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${apiPort}/v1/activity/${ids[run % ids.length]}${suffix}`, { headers });
      await res.json();
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
    }
    times.sort((a, b) => a - b);
    results.push({
      route: name,
      p50_ms: Number(/** @type {number} */ (percentile(times, 50)).toFixed(1)),
      p95_ms: Number(/** @type {number} */ (percentile(times, 95)).toFixed(1)),
    });
  }
  return results;
}

async function main() {
  const secretsKeys = `bench:${randomBytes(32).toString('base64')}`;
  const boot = JSON.parse(
    execFileSync(
      process.execPath,
      [path.join(ROOT, 'services/management-api/dist/bootstrap.js'), '--account', 'bench'],
      { env: { ...process.env, MONGODB_URL: mongodbUrl, SECRETS_KEYS: secretsKeys } },
    ).toString(),
  );
  const store = await connectStore(mongodbUrl);
  await Promise.all(
    ENDPOINTS.map((id) =>
      insertEndpoint(store, id, boot.account_id, {
        name: id,
        enabled: true,
        paused: false,
        methods: ['POST'],
        payload_format: 'json',
        inbound_auth: { type: 'NONE' },
      }),
    ),
  );
  const apiPort = await freePort();
  const env = {
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    RABBITMQ_URL: process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672',
    MONGODB_URL: mongodbUrl,
    RELAY_NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    HEALTH_PORT: String(await freePort()),
    SECRETS_KEYS: secretsKeys,
  };
  const api = startProcess(path.join(ROOT, 'services/management-api/dist/main.js'), env);
  try {
    await waitFor(`http://127.0.0.1:${apiPort}/readyz`);
    const loaded = await preload(store, boot.account_id);
    const quiet = await waitQuiet(QUIET_MAX_S);
    const m0 = machineCpu();
    const searches = await timeSearches(apiPort, boot.api_key);
    const detail = await timeDetail(apiPort, boot.api_key);
    const report = {
      bench: 'activity-search',
      at: new Date().toISOString(),
      rows_present: ROWS,
      span_days: SPAN_DAYS,
      preload: loaded,
      runs: QUERY_RUNS,
      searches,
      detail,
      quiet_wait_s: quiet.waited_s,
      quiet_reached: quiet.reached,
      machine_while_timing: machineWindow(m0, machineCpu()),
    };
    console.log(
      `\nGET /v1/activity searches (limit 50, at most 100 rows read a call) with ${ROWS} rows and ${loaded.payloads} payloads, ${QUERY_RUNS} runs each (after ${quiet.waited_s} s for a quiet machine${quiet.reached ? '' : ', NOT reached'}; ${report.machine_while_timing.busy_pct}% busy while timing)`,
    );
    for (const q of searches)
      console.log(
        `  ${q.search.padEnd(36)} p50 ${String(q.p50_ms).padStart(7)} ms   p95 ${String(q.p95_ms).padStart(7)} ms   rows/call ${q.mean_rows_per_call}`,
      );
    for (const d of detail)
      console.log(
        `  ${d.route.padEnd(36)} p50 ${String(d.p50_ms).padStart(7)} ms   p95 ${String(d.p95_ms).padStart(7)} ms`,
      );
    console.log(JSON.stringify(report));
    const results = process.env.BENCH_RESULTS_DIR || path.join(ROOT, 'bench-results');
    fs.mkdirSync(results, { recursive: true });
    fs.writeFileSync(path.join(results, 'activity-search.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    api.kill('SIGTERM');
    await api.exited;
    if (!process.env.BENCH_KEEP_DB) await store.connection.dropDatabase().catch(() => undefined);
    await store.close();
  }
}

main().catch((err) => {
  console.error(`bench/activity-search failed: ${err.stack || err}`);
  process.exit(1);
});
