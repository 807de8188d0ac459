import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Keeps every bench from rotting — `bench/system.js` (the headline of `npm run bench`), `bench/tenants.js`
 * (the same system on many endpoints, accounts and senders), `bench/floor.js` (the same load on
 * the least the fixed architecture can do, alone and with the least activity log the spec asks)
 * and the rest of `npm run bench`, and the benches it does not run (resend, tracing, store-probe):
 * each runs in short mode and must exit 0 and report what it measured. Speed is never
 * asserted here (docs/benchmarks.md); only that the run completed and lost nothing it accepted.
 */
const ROOT = path.resolve(__dirname, '../..');
const LIMIT_MS = 150_000;
/** rules.js runs the whole system five times (plain, rules, rules-only, transform, ordered): about 2.5 min on a quiet machine */
const RULES_LIMIT_MS = 300_000;

interface BenchRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** what the bench wrote to its results directory (`<bench>.json`), or null */
  written: unknown;
}

/** Each bench the smoke test runs: its script and what it needs beyond the short mode. */
const BENCHES = {
  system: { script: 'system.js', env: {} },
  // this tree as the built baseline (BENCH_BASELINE_TREE: no git checkout, which a CI runner
  // may not have), then one round
  'system-vs': { script: 'system-vs.js', env: { BENCH_BASELINE_TREE: ROOT }, limitMs: RULES_LIMIT_MS },
  floor: { script: 'floor.js', env: {} },
  'floor-with-log': { script: 'floor.js', env: { FLOOR_LOG: '1' } },
  'bulk-retries': { script: 'bulk-retries.js', env: { BENCH_BULK_DOCS: '1000' } },
  tenants: { script: 'tenants.js', env: {} },
  // one deliverer process per channel; few deliveries (the outputs' spreadsheet fake keeps Google's 60 writes a minute)
  deliverer: { script: 'deliverer.js', env: { BENCH_DELIVERIES: '300' } },
  outputs: { script: 'outputs.js', env: { BENCH_OUTPUT_DELIVERIES: '40' } },
  gateway: { script: 'gateway.js', env: {} },
  'verify-families': { script: 'verify-families.js', env: { BENCH_VERIFY_MS: '50' } },
  'activity-writers': { script: 'activity-writers.js', env: {} },
  rules: { script: 'rules.js', env: {}, limitMs: RULES_LIMIT_MS },
  'hostile-rules': { script: 'hostile-rules.js', env: {} },
  transform: { script: 'transform.js', env: { BENCH_TRANSFORM_CALLS: '100' } },
  'transform-call': { script: 'transform-call.js', env: { BENCH_TRANSFORM_CALLS: '200', BENCH_TRANSFORM_ROUNDS: '1' } },
  'transform-isolation': { script: 'transform-isolation.js', env: { BENCH_ISOLATION_S: '3' } },
  // the store benches at a few thousand rows instead of 1,000,000, and a short wait for a quiet machine
  activity: {
    script: 'activity.js',
    env: {
      BENCH_ACTIVITY_ROWS: '2000',
      BENCH_WRITER_EVENTS: '200',
      BENCH_QUERY_RUNS: '3',
      BENCH_STEADY_FLUSHES: '10',
      BENCH_STEADY_ROWS: '5',
      BENCH_QUIET_MAX_S: '2',
    },
  },
  'activity-search': {
    script: 'activity-search.js',
    env: { BENCH_ACTIVITY_ROWS: '2000', BENCH_QUERY_RUNS: '3', BENCH_SPAN_DAYS: '1', BENCH_QUIET_MAX_S: '2' },
  },
  // the writer's flushes by spread: spreads 1 and 100, 5 flushes each (its short mode)
  'activity-scopes': { script: 'activity-scopes.js', env: {} },
  // a scratch database on the shared FerretDB, dropped at the end (never PROBE_MULTI here: docs/testing.md)
  // the two benches outside npm run bench: a row's cost as resends pile up, and the tracing hooks' CPU in process
  resend: { script: 'resend.js', env: { BENCH_RESENDS: '30' } },
  tracing: { script: 'tracing.js', env: { BENCH_EVENTS: '2000' } },
  'store-probe': {
    script: 'store-probe.js',
    env: {
      PROBE_URL: `${(process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017/relay').replace(/\/[^/]*$/, '/')}`,
      PROBE_ROWS: '2000',
      PROBE_BATCH: '500',
      PROBE_REPS: '3',
      PROBE_STEP_BUDGET_MS: '5000',
    },
  },
} satisfies Record<string, { script: string; env: Record<string, string>; limitMs?: number }>;

/** Runs a bench in short mode with a results directory of its own, removed afterwards; `name` is the results file's. */
async function runBench(name: keyof typeof BENCHES): Promise<BenchRun> {
  const resultsDir = mkdtempSync(path.join(tmpdir(), `relay-${name}-`));
  try {
    const bench: { script: string; env: Record<string, string>; limitMs?: number } = BENCHES[name];
    const run = await spawnBench(bench.script, resultsDir, bench.env, bench.limitMs ?? LIMIT_MS);
    let written: unknown = null;
    try {
      written = JSON.parse(readFileSync(path.join(resultsDir, `${name}.json`), 'utf8'));
    } catch {
      // no results file: the assertions on the exit code say why
    }
    return { ...run, written };
  } finally {
    rmSync(resultsDir, { recursive: true, force: true });
  }
}

function spawnBench(
  script: string,
  resultsDir: string,
  env: Record<string, string>,
  limitMs: number,
): Promise<Omit<BenchRun, 'written'>> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', script)], {
    cwd: ROOT,
    env: { ...process.env, ...env, BENCH_DURATION_S: '3', BENCH_WARMUP_S: '1', BENCH_RESULTS_DIR: resultsDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // SIGTERM lets the bench stop its services and delete its queues and database
  const timer = setTimeout(() => child.kill('SIGTERM'), limitMs - 15_000);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The run exited 0 with nothing on stderr, and printed exactly one JSON line: its report. */
function reportOf<T>(run: BenchRun): T {
  expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
  const lines = run.stdout.split('\n').filter((l) => l.startsWith('{'));
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as T;
}

describe('bench/system.js in short mode (every service a process, real RabbitMQ, Redis and FerretDB)', () => {
  it(
    'exits 0, delivers every accepted event and prints one JSON line with the figures',
    async () => {
      const run = await runBench('system');
      const report = reportOf<Record<string, unknown>>(run);
      expect(report).toMatchObject({ bench: 'system', lost: 0 });
      expect(typeof report.accepted_per_s).toBe('number');
      expect(report.accepted_per_s).toBeGreaterThan(0);
      expect(typeof report.delivered_per_s).toBe('number');
      expect(report.delivered).toBeGreaterThan(0);
      expect(typeof report.bare_express_req_per_s).toBe('number');
      // the baseline is the mean of a run before Relay's load and one after it, each with the
      // CPU the host took from this machine meanwhile
      const bare = report.bare_express as {
        req_per_s: number;
        before: { req_per_s: number; steal_pct: unknown };
        after: { req_per_s: number; steal_pct: unknown };
      };
      expect(bare.before.req_per_s).toBeGreaterThan(0);
      expect(bare.after.req_per_s).toBeGreaterThan(0);
      expect(bare.req_per_s).toBe(Math.round((bare.before.req_per_s + bare.after.req_per_s) / 2));
      expect(report.bare_express_req_per_s).toBe(bare.req_per_s);
      expect(report.ratio).toBeCloseTo((report.delivered_per_s as number) / bare.req_per_s, 2);
      for (const phase of [
        bare.before,
        bare.after,
        (report.resources as { machine_during_load: { steal_pct: unknown } }).machine_during_load,
      ])
        expect(typeof phase.steal_pct).toBe('number');
      expect(typeof report.duplicates).toBe('number');
      // the activity lag is a number when the log caught up within the bench's bound, else null
      expect(typeof report.activity_caught_up).toBe('boolean');
      expect(typeof report.activity_lag_s).toBe(report.activity_caught_up ? 'number' : 'object');
      // once caught up, the sampled delivered events read back as Completed rows (else exit 1 above)
      if (report.activity_caught_up)
        expect(report.activity).toMatchObject({ sample_not_completed: 0, list_first_page_ms: expect.any(Number) });

      // the store is part of the system: FerretDB and PostgreSQL, as scripts/infra.sh runs them,
      // are counted beside the services, not as "other work on the machine"
      expect((report.resources as { during_load: Record<string, unknown> }).during_load).toHaveProperty('store', {
        cpu_pct: expect.any(Number),
        rss_mb_max: expect.any(Number),
      });

      expect(run.written).toEqual(report);
    },
    LIMIT_MS,
  );
});

describe('bench/system-vs.js in short mode (the whole system in a built baseline tree, here this one, then in this tree)', () => {
  it(
    'exits 0, loses nothing, and reports both runs, their means and this tree ÷ the baseline',
    async () => {
      const run = await runBench('system-vs');
      type Means = { ratio_to_bare: number; accepted_per_s: number; delivered_per_s: number };
      const report = reportOf<{
        bench: string;
        baseline: string;
        runs: Array<{ tree: string; accepted_per_s: number; delivered_per_s: number; lost: number }>;
        means: { this: Means; baseline: Means };
        this_over_baseline: Means;
        lost: number;
      }>(run);
      // its commit, or its directory outside a repository
      expect(report.baseline === ROOT || /^[0-9a-f]{40}$/.test(report.baseline)).toBe(true);
      expect(report.runs.map((r) => r.tree)).toEqual(['baseline', 'this']);
      for (const r of report.runs) expect(r.delivered_per_s).toBeGreaterThan(0);
      expect(report.lost).toBe(0);
      expect(report.this_over_baseline.accepted_per_s).toBeCloseTo(
        report.runs[1]!.accepted_per_s / report.runs[0]!.accepted_per_s,
        2,
      );
      expect(run.written).toEqual(report);
    },
    RULES_LIMIT_MS,
  );
});

describe('bench/floor.js in short mode (express → quorum queue → got → receiver, real RabbitMQ)', () => {
  it(
    'exits 0, delivers every accepted request and reports its ratio to the same baseline',
    async () => {
      const run = await runBench('floor');
      const report = reportOf<{
        bench: string;
        lost: number;
        duplicates: number;
        accepted_per_s: number;
        delivered_per_s: number;
        ratio: number;
        bare_express_req_per_s: number;
        bare_express: { before: { req_per_s: number }; after: { req_per_s: number } };
      }>(run);
      expect(report).toMatchObject({ bench: 'floor', lost: 0, duplicates: 0 });
      expect(report.accepted_per_s).toBeGreaterThan(0);
      expect(report.delivered_per_s).toBeGreaterThan(0);
      expect(report.bare_express_req_per_s).toBe(
        Math.round((report.bare_express.before.req_per_s + report.bare_express.after.req_per_s) / 2),
      );
      expect(report.ratio).toBeCloseTo(report.delivered_per_s / report.bare_express_req_per_s, 2);
      expect(run.written).toEqual(report);
    },
    LIMIT_MS,
  );
});

describe('bench/floor.js with FLOOR_LOG=1 in short mode (the floor plus a Redis call and an activity log on real Redis and FerretDB)', () => {
  it(
    'exits 0, delivers every accepted request, writes every activity record and reports the lag',
    async () => {
      const run = await runBench('floor-with-log');
      const report = reportOf<{
        bench: string;
        lost: number;
        duplicates: number;
        delivered_per_s: number;
        activity_lag_s: number | null;
        activity_documents: number;
        ratio: number;
        bare_express_req_per_s: number;
      }>(run);
      expect(report).toMatchObject({ bench: 'floor-with-log', lost: 0, duplicates: 0 });
      expect(report.delivered_per_s).toBeGreaterThan(0);
      // caught up: every request and outcome record written (null would mean it never did)
      expect(report.activity_lag_s).not.toBeNull();
      expect(report.activity_documents).toBeGreaterThan(0);
      expect(report.ratio).toBeCloseTo(report.delivered_per_s / report.bare_express_req_per_s, 2);
      expect(run.written).toEqual(report);
    },
    LIMIT_MS,
  );
});

describe("bench/bulk-retries.js in short mode (GET /v1/bulk-retries' store path on real FerretDB)", () => {
  it(
    'exits 0 and reports creates and full pages timed at the size it preloaded',
    async () => {
      const run = await runBench('bulk-retries');
      const report = reportOf<{
        bench: string;
        documents: number;
        list_page: number;
        create_p50_ms: number;
        list_p50_ms: number;
      }>(run);
      expect(report).toMatchObject({ bench: 'bulk-retries', documents: 1000, list_page: 20 });
      expect(report.create_p50_ms).toBeGreaterThan(0);
      expect(report.list_p50_ms).toBeGreaterThan(0);
      expect(run.written).toEqual(report);
    },
    LIMIT_MS,
  );
});

describe('bench/tenants.js in short mode (the whole system on one endpoint, then on 10 over 10 accounts from many loopback senders)', () => {
  it(
    'exits 0, delivers every accepted event and reports each phase with its store reads and CPU per event',
    async () => {
      const run = await runBench('tenants');
      type Phase = {
        endpoints: number;
        endpoints_used: number;
        sources_used: number;
        accepted_per_s: number;
        ratio_to_single: number;
        activity_lag_s: number | null;
        store_reads_per_s: Record<string, number | null>;
        cpu_ms_per_event: Record<string, number | null>;
        per_event: Record<string, number | null>;
      };
      const report = reportOf<{ bench: string; lost: number; duplicates: number; phases: Phase[] }>(run);
      expect(report).toMatchObject({ bench: 'tenants', lost: 0, duplicates: 0 });
      expect(report.phases.map((p) => p.endpoints)).toEqual([1, 10]);
      const [single, spread] = report.phases as [Phase, Phase];
      expect([single.endpoints_used, single.sources_used]).toEqual([1, 1]);
      expect(spread.endpoints_used).toBe(10);
      expect(spread.sources_used).toBeGreaterThan(1);
      for (const p of report.phases) {
        expect(p.accepted_per_s).toBeGreaterThan(0);
        expect(p.ratio_to_single).toBeCloseTo(p.accepted_per_s / single.accepted_per_s, 2);
        expect(p.activity_lag_s).not.toBeNull();
        // the metric operators see, scraped from the gateway's and the webhook deliverer's /metrics
        expect(p.store_reads_per_s).toMatchObject({
          'ingest-gateway': expect.any(Number),
          'webhook-deliverer': expect.any(Number),
        });
        expect(p.cpu_ms_per_event).toMatchObject({
          'ingest-gateway': expect.any(Number),
          'webhook-deliverer': expect.any(Number),
          'activity-writer': expect.any(Number),
        });
        // counted by the processes: at least the delivery's message per event; the gate's calls (no limits: batched reports only)
        expect(p.per_event.gateway_messages).toBeGreaterThanOrEqual(1);
        expect(p.per_event.deliverer_gate_calls).toEqual(expect.any(Number));
      }
      expect(run.written).toEqual(report);
    },
    LIMIT_MS,
  );
});

/** The run exited 0 with nothing on stderr and wrote its results file; its JSON. */
function writtenOf<T>(run: BenchRun): T {
  expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
  expect(run.written).not.toBeNull();
  return run.written as T;
}

describe('bench/deliverer.js in short mode (one webhook deliverer process, real RabbitMQ and FerretDB, a local receiver)', () => {
  it(
    'exits 0 and reports deliveries/s and latency of what it delivered, without duplicates',
    async () => {
      const report = writtenOf<{
        deliveries_per_s: number;
        p50_ms: number;
        p99_ms: number;
        n: number;
        duplicates: number;
      }>(await runBench('deliverer'));
      expect(report).toMatchObject({ n: 270, duplicates: 0 });
      expect(report.deliveries_per_s).toBeGreaterThan(0);
      expect(report.p99_ms).toBeGreaterThanOrEqual(report.p50_ms);
    },
    LIMIT_MS,
  );
});

describe('bench/outputs.js in short mode (one outputs deliverer process: SMTP, the Google fake, Redis, RabbitMQ, Mosquitto, nats-server, ElasticMQ, versitygw and a Kafka of its own)', () => {
  it(
    'exits 0 and reports deliveries/s of an email, a spreadsheet, a Redis Streams, a RabbitMQ exchange, an MQTT, a NATS JetStream, an SQS, an S3 and a Kafka target',
    async () => {
      const report = writtenOf<{ results: { kind: string; deliveries_per_s: number; n: number }[] }>(
        await runBench('outputs'),
      );
      expect(report.results.map((r) => [r.kind, r.n])).toEqual([
        ['email', 36],
        ['spreadsheet', 36],
        ['redis_stream', 36],
        ['amqp_exchange', 36],
        ['mqtt', 36],
        ['nats_jetstream', 36],
        ['sqs', 36],
        ['s3', 36],
        ['kafka', 36],
      ]);
      for (const r of report.results) expect(r.deliveries_per_s).toBeGreaterThan(0);
    },
    LIMIT_MS,
  );
});

describe('bench/gateway.js in short mode (the gateway process beside bare express, real Redis, RabbitMQ and FerretDB)', () => {
  it(
    'exits 0 and reports accepted/s of both and their ratio',
    async () => {
      type Side = { accepted_per_s: number; p50_ms: number; p99_ms: number };
      const report = writtenOf<{ bare_express: Side; gateway: Side; ratio: number }>(await runBench('gateway'));
      expect(report.gateway.accepted_per_s).toBeGreaterThan(0);
      expect(report.bare_express.accepted_per_s).toBeGreaterThan(0);
      expect(report.ratio).toBeCloseTo(report.gateway.accepted_per_s / report.bare_express.accepted_per_s, 2);
    },
    LIMIT_MS,
  );
});

describe('bench/verify-families.js in short mode (inbound verification per family, in process)', () => {
  it(
    'exits 0 and reports µs per verified request for every family',
    async () => {
      const report = writtenOf<{ results: { family: string; us_per_request: number }[] }>(
        await runBench('verify-families'),
      );
      expect(report.results.length).toBeGreaterThan(5);
      for (const r of report.results) expect(r.us_per_request).toBeGreaterThan(0);
    },
    LIMIT_MS,
  );
});

describe('bench/activity-writers.js in short mode (1, 2 and 4 activity-writer processes on the partitions, real RabbitMQ and FerretDB)', () => {
  it(
    "exits 0 and reports rows/s and each writer's rows, CPU per row and hand-overs (with their settles and probes), for 1, 2 and 4 writers",
    async () => {
      const run = await runBench('activity-writers');
      type Writer = {
        rows: number;
        cpu_ms_per_row: number | null;
        handovers: { given: number; taken: number; settle_s: number; probes: number };
      };
      const report = reportOf<{
        bench: string;
        runs: { writers: number; events: number; rows_per_s: number; per_writer: Writer[] }[];
      }>(run);
      expect(report.bench).toBe('activity-writers');
      expect(report.runs.map((r) => r.writers)).toEqual([1, 2, 4]);
      for (const r of report.runs) {
        expect(r.rows_per_s).toBeGreaterThan(0);
        expect(r.per_writer).toHaveLength(r.writers);
        expect(r.per_writer.reduce((n, w) => n + w.rows, 0)).toBeGreaterThanOrEqual(r.events);
        for (const w of r.per_writer)
          expect(w.handovers).toEqual({
            given: expect.any(Number),
            taken: expect.any(Number),
            settle_s: expect.any(Number),
            probes: expect.any(Number),
          });
      }
      expect(run.written).toEqual(report);
    },
    LIMIT_MS,
  );
});

describe('bench/rules.js in short mode (the whole system plain, then with routing rules and a per-target limit, then the rules alone, then a transformation, then ordering per key)', () => {
  it(
    "exits 0, loses nothing, and reports every run, the ratios to plain and each process's CPU per event",
    async () => {
      const run = await runBench('rules');
      type Run = {
        variant: string;
        accepted_per_s: number;
        delivered_per_s: number;
        lost: number;
        cpu_ms_per_event: Record<string, number>;
      };
      const report = reportOf<{
        bench: string;
        runs: Run[];
        accepted_ratio: number;
        ratios: Record<string, { accepted: number }>;
        cpu_ms_per_event: Record<string, Record<string, number>>;
        lost: number;
      }>(run);
      expect(report.runs.map((r) => r.variant)).toEqual(['plain', 'rules', 'rules-only', 'transform', 'ordered']);
      for (const r of report.runs) expect(r.delivered_per_s).toBeGreaterThan(0);
      for (const r of report.runs) expect(r.cpu_ms_per_event['ingest-gateway']).toBeGreaterThan(0);
      expect(report.lost).toBe(0);
      expect(report.accepted_ratio).toBeCloseTo(report.runs[1]!.accepted_per_s / report.runs[0]!.accepted_per_s, 2);
      expect(report.ratios['rules-only']!.accepted).toBeCloseTo(
        report.runs[2]!.accepted_per_s / report.runs[0]!.accepted_per_s,
        2,
      );
      expect(report.ratios.transform!.accepted).toBeCloseTo(
        report.runs[3]!.accepted_per_s / report.runs[0]!.accepted_per_s,
        2,
      );
      expect(Object.keys(report.cpu_ms_per_event)).toEqual(['plain', 'rules', 'rules-only', 'transform', 'ordered']);
      expect(run.written).toEqual(report);
    },
    RULES_LIMIT_MS,
  );
});

describe('bench/activity.js in short mode (the activity-writer and the activity API on a few thousand rows, real RabbitMQ and FerretDB)', () => {
  it(
    "exits 0 and reports the writer's rows/s and each filter's timings",
    async () => {
      const run = await runBench('activity');
      type Timed = { filter: string; p50_ms: number; p95_ms: number };
      const report = reportOf<{
        rows_present: number;
        writer: { empty: { rows_per_s: number }; full: { rows_per_s: number } };
        queries: Timed[];
        steady_hour: { flushes: number; queries: Timed[] };
      }>(run);
      expect(report.rows_present).toBe(2000 + 2 * 200);
      expect(report.writer.empty.rows_per_s).toBeGreaterThan(0);
      expect(report.writer.full.rows_per_s).toBeGreaterThan(0);
      expect(report.queries.length).toBeGreaterThan(0);
      expect(report.steady_hour.flushes).toBe(10);
      for (const q of [...report.queries, ...report.steady_hour.queries]) expect(typeof q.p95_ms).toBe('number');
      expect(run.written).toEqual(report);
    },
    LIMIT_MS,
  );
});

describe('bench/activity-search.js in short mode (the activity searches on a few thousand rows, real FerretDB)', () => {
  it(
    "exits 0 and reports every search's and detail route's timings",
    async () => {
      const run = await runBench('activity-search');
      const report = reportOf<{
        bench: string;
        rows_present: number;
        searches: { search: string; p95_ms: number }[];
        detail: { route: string; p95_ms: number }[];
      }>(run);
      expect(report).toMatchObject({ bench: 'activity-search', rows_present: 2000 });
      expect(report.searches.length).toBeGreaterThan(0);
      expect(report.detail.length).toBeGreaterThan(0);
      for (const q of [...report.searches, ...report.detail]) expect(typeof q.p95_ms).toBe('number');
      expect(run.written).toEqual(report);
    },
    LIMIT_MS,
  );
});

describe("bench/activity-scopes.js in short mode (the writer's flushes by how far their rows spread, real FerretDB)", () => {
  it(
    "exits 0 and reports each spread's time, CPU and store commands per flush",
    async () => {
      const run = await runBench('activity-scopes');
      const report = reportOf<{
        bench: string;
        results: {
          endpoints: number;
          flushes: number;
          ms_per_flush: number;
          writer_cpu_ms_per_flush: number;
          store_commands_per_flush: number;
        }[];
      }>(run);
      expect(report.bench).toBe('activity-scopes');
      expect(report.results.map((r) => [r.endpoints, r.flushes])).toEqual([
        [1, 5],
        [100, 5],
      ]);
      for (const r of report.results)
        for (const figure of [r.ms_per_flush, r.writer_cpu_ms_per_flush, r.store_commands_per_flush])
          expect(typeof figure).toBe('number');
      expect(run.written).toEqual(report);
    },
    LIMIT_MS,
  );
});

describe('bench/store-probe.js in short mode (which store commands FerretDB answers by index, on a scratch database)', () => {
  it(
    'exits 0 and reports insert rates, timed operations and their plans, and drops its database',
    async () => {
      const run = await runBench('store-probe');
      // progress goes to stderr: only its exit code and its stdout count
      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
      const report = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(report).toMatchObject({ dropped: true, insert: { overall_rows_per_s: expect.any(Number) } });
      expect((report.ops as unknown[]).length).toBeGreaterThan(0);
      expect((report.explain as unknown[]).length).toBeGreaterThan(0);
    },
    LIMIT_MS,
  );
});

describe('bench/resend.js in short mode (one row resent again and again through the management API)', () => {
  it(
    "exits 0 and reports the row's size and read and resend times at its checkpoints",
    async () => {
      const run = await runBench('resend');
      const report = reportOf<{
        bench: string;
        resends: number;
        checkpoints: { resends: number; row_bytes: number; read_p50_ms: number }[];
      }>(run);
      expect(report).toMatchObject({ bench: 'resend', resends: 30 });
      expect(report.checkpoints.length).toBeGreaterThan(0);
      for (const c of report.checkpoints) expect(typeof c.read_p50_ms).toBe('number');
      expect(run.written).toEqual(report);
    },
    LIMIT_MS,
  );
});

describe("bench/tracing.js in short mode (the tracing hooks' CPU per event, in process)", () => {
  it(
    'exits 0 and reports µs of CPU per event without, with tracing off and with it on',
    async () => {
      const run = await runBench('tracing');
      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(
        /tracing hooks, 2000 events: the steps alone [\d.]+ µs CPU\/event; off [\d.]+ µs .*; on [\d.]+ µs/,
      );
    },
    LIMIT_MS,
  );
});

describe('bench/hostile-rules.js in short mode (a quiet account alone, then beside tenants whose rules go to the rule pool or run inline at the threshold, each after its control)', () => {
  it(
    "exits 0 and records the quiet account's latency in each phase and what the tenants were answered",
    async () => {
      const run = await runBench('hostile-rules');
      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(
        /alone .* p99 [\d.]+ ms\n.*beside pool control .*\n.*beside pool .*\n.*beside inline control .*\n.*beside inline .* p99 [\d.]+ ms/,
      );
      const phase = { p50_ms: expect.any(Number), p99_ms: expect.any(Number), non_2xx: 0, errors: 0 };
      const report = run.written as { tenant_answers: Record<string, Record<string, number>> };
      expect(report).toMatchObject({
        settings: { RULES_INLINE_COST: expect.any(Number), RULES_DEADLINE_MS: expect.any(Number) },
        quiet_alone: phase,
        quiet_beside: { pool_control: phase, pool: phase, inline_control: phase, inline: phase },
        p99_over_control_ms: { pool: expect.any(Number), inline: expect.any(Number) },
      });
      // the pool tenant's bodies are stopped at the deadline (or refused while its share of the pool is in use), never accepted
      const pooled = Object.keys(report.tenant_answers.pool!);
      expect(pooled.length).toBeGreaterThan(0);
      for (const a of pooled) expect(['413 rules_deadline_exceeded', '429 rules_busy']).toContain(a);
      // the controls' requests are accepted
      expect(Object.keys(report.tenant_answers.pool_control!)).toEqual(['202']);
    },
    LIMIT_MS,
  );
});

describe("bench/transform-call.js in short mode (a transformed delivery's CPU time, in process)", () => {
  it(
    'exits 0 and reports CPU per delivery of the process, its main thread and the sandbox thread',
    async () => {
      const run = await runBench('transform-call');
      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
      const report = run.written as { calls: number; builds: Record<string, number | string>[] };
      expect(report.calls).toBe(200);
      expect(report.builds).toHaveLength(1);
      const [build] = report.builds;
      for (const figure of ['process', 'main_thread', 'sandbox_thread'])
        expect(build![`${figure}_us_per_call`]).toBeGreaterThan(0);
    },
    LIMIT_MS,
  );
});
