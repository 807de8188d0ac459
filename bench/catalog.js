// Every bench `npm run bench` runs, described once: its title and method (docs/benchmarks.md is
// generated from them), the command scripts/bench.sh runs, and the figures worth quoting from its
// report (bench-results/<name>.json), which scripts/bench-record.js records in
// bench/results/<name>.json.

/**
 * @typedef {{ name: string; value: number | string | null; unit?: string }} Figure
 * @typedef {{ title: string; command: string; method: string; figures: (report: any) => Figure[] }} Bench
 */

/**
 * @param {string} name
 * @param {number | string | null | undefined} value
 * @param {string} [unit]
 * @returns {Figure}
 */
const fig = (name, value, unit) => ({ name, value: value ?? null, ...(unit ? { unit } : {}) });

/**
 * p50 / p95 of a timed query, as one figure.
 * @param {string} name
 * @param {{ p50_ms: number; p95_ms: number } | undefined} q
 */
const p95 = (name, q) => fig(`p95, ${name}`, q?.p95_ms, 'ms');

/**
 * The mean CPU ms per event of process `p` over one tree's runs of bench/system-vs.js.
 * @param {any} r
 * @param {'this' | 'baseline'} tree
 * @param {string} p
 */
const cpuMean = (r, tree, p) => {
  const xs = r.runs
    .filter((/** @type {{ tree: string }} */ x) => x.tree === tree)
    .map((/** @type {{ cpu_ms_per_event: Record<string, number> }} */ x) => x.cpu_ms_per_event[p] ?? 0);
  return (xs.reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0) / xs.length).toFixed(3);
};

/**
 * What every soak reports: the totals, the activity lag over the run, the writers' flush times
 * first and last, and the pass line.
 * @param {any} r
 * @returns {Figure[]}
 */
const soakFigures = (r) => {
  const lags = r.samples.map((/** @type {{ activity_lag_s: number | null }} */ s) => s.activity_lag_s ?? 0);
  const flushes = r.samples.map((/** @type {{ flush_ms_mean: number | null }} */ s) => s.flush_ms_mean);
  return [
    fig('accepted', r.totals.accepted),
    fig('lost, duplicates', `${r.totals.lost}, ${r.totals.duplicates}`),
    fig('activity lag: last, largest', `${lags.at(-1)}, ${Math.max(...lags)}`, 's'),
    fig('activity lag trend', r.pass_line.lag_slope_s_per_s, 's per s'),
    fig('activity lag at each sample', lags.map((/** @type {number} */ l) => l.toFixed(1)).join(' '), 's'),
    fig('mean flush since the start: at the first, at the last sample', `${flushes[0]}, ${flushes.at(-1)}`, 'ms'),
    fig('log drained after the load', r.totals.log_drained_after_load_s, 's'),
    fig('machine busy (of 200 %)', r.machine.busy_pct, '%'),
    fig('pass line', r.pass_line.passed ? 'passed' : 'missed'),
  ];
};

/**
 * A soak at a steady open-loop rate (bench/soak.js).
 * @param {string} command
 * @param {string} title
 * @param {string} what
 * @param {(report: any) => Figure[]} [more]
 * @returns {Bench}
 */
const soak = (command, title, what, more = () => []) => ({
  title: `Soak: ${title}`,
  command,
  method: `The whole system as \`npm start\` runs it under a steady open-loop load to 50 endpoints: ${what}. The activity lag, queues, flush times, store CPU and memory are sampled every 30 s. It passes when the last lag is under 5 s, every lag of the second half is under it and trends up by less than a second, no service's memory grows by more than a quarter over the second half, and every accepted event is delivered.`,
  figures: (r) => [...soakFigures(r), ...more(r)],
});

/**
 * The writers' catch-up after all were stopped under load: how long, and how fast they wrote.
 * @param {any} r
 * @returns {Figure[]}
 */
const catchUp = (r) => {
  const after = r.samples.filter(
    (/** @type {{ t_s: number }} */ s) => r.pause.started_at_s !== null && s.t_s > r.pause.started_at_s,
  );
  return [
    fig('activity messages queued while stopped', r.pause.backlog_max),
    fig('caught up after restart', r.pause.catch_up_s, 's'),
    fig(
      'rows written per second while catching up (peak sample)',
      Math.max(0, ...after.map((/** @type {{ rows_written_per_s: number }} */ s) => s.rows_written_per_s)),
    ),
  ];
};

/**
 * Each writer's share of the rows, at the end of the run.
 * @param {any} r
 * @returns {Figure[]}
 */
const shares = (r) => [fig('rows written by each writer', (r.samples.at(-1)?.rows_by_writer ?? []).join(', '))];

/** @type {Record<string, Bench>} */
const BENCHES = {
  system: {
    title: 'Whole system',
    command: 'node bench/system.js',
    method:
      'Every service as its own process, as `npm start` runs them; one webhook target on a local receiver that answers 200 at once; 64 connections of 1,008-byte JSON POSTs for 20 s after a 3 s warm-up; bare express under the same load in the same run. The ratio is delivered/s ÷ bare express req/s. Activity lag: seconds after the load until the activity queue is empty and the writer holds nothing unwritten.',
    figures: (r) => [
      fig('accepted/s', r.accepted_per_s),
      fig('delivered/s', r.delivered_per_s),
      fig('ratio to bare express', r.ratio),
      fig('p50 / p99 of the 202', `${r.p50_ms} / ${r.p99_ms}`, 'ms'),
      fig('activity lag after the load', r.activity_lag_s, 's'),
      fig('lost, duplicates', `${r.lost}, ${r.duplicates}`),
    ],
  },
  'system-vs': {
    title: 'Whole system against an earlier build',
    command: 'node bench/system-vs.js',
    method:
      'The whole-system bench run alternately in this tree and in a built checkout of an earlier commit (`BENCH_BASELINE`, default the last commit; or a tree already built, `BENCH_BASELINE_TREE`), four rounds of B A / A B after a run that is not counted; the figures are this tree ÷ the baseline, of the means. How a change is shown not to lower the whole-system figure.',
    figures: (r) => [
      // a commit, or the directory of a tree given as built (BENCH_BASELINE_TREE)
      fig('baseline', /^[0-9a-f]{40}$/.test(r.baseline) ? r.baseline.slice(0, 12) : r.baseline),
      fig('ratio to bare express, this ÷ baseline', r.this_over_baseline.ratio_to_bare),
      fig('accepted/s, this ÷ baseline', r.this_over_baseline.accepted_per_s),
      fig('delivered/s, this ÷ baseline', r.this_over_baseline.delivered_per_s),
      fig(
        'ratio to bare express, this / baseline',
        `${r.means.this.ratio_to_bare} / ${r.means.baseline.ratio_to_bare}`,
      ),
      fig('delivered/s, this / baseline', `${r.means.this.delivered_per_s} / ${r.means.baseline.delivered_per_s}`),
      ...['ingest-gateway', 'webhook-deliverer', 'rabbitmq'].map((p) =>
        fig(`CPU per event, ${p}, this / baseline`, `${cpuMean(r, 'this', p)} / ${cpuMean(r, 'baseline', p)}`, 'ms'),
      ),
      fig('lost', r.lost),
    ],
  },
  'soak-1-account': soak(
    'SOAK_ACCOUNTS=1 node bench/soak.js',
    '300 requests/s for 10 minutes, one account',
    '300 requests/s for 10 minutes, one account',
  ),
  'soak-10-accounts': soak(
    'SOAK_ACCOUNTS=10 node bench/soak.js',
    '300 requests/s for 10 minutes, ten accounts',
    '300 requests/s for 10 minutes, ten accounts',
  ),
  'soak-30min-1-account': soak(
    'SOAK_DURATION_S=1800 SOAK_NAME=soak-30min-1-account node bench/soak.js',
    '300 requests/s for 30 minutes, one account, empty store',
    '300 requests/s for 30 minutes to one account, the store empty at the start (the hour fills to about 540,000 rows)',
  ),
  'soak-30min-1-account-1m-rows': soak(
    'SOAK_DURATION_S=1800 SOAK_PREFILL_ROWS=1000000 SOAK_NAME=soak-30min-1-account-1m-rows node bench/soak.js',
    '300 requests/s for 30 minutes, one account, 1,000,000 rows already in the hour',
    "300 requests/s for 30 minutes to one account, after 1,000,000 rows were written into the current hour through the writer's own code",
  ),
  'soak-writers-stopped': soak(
    'SOAK_DURATION_S=1200 SOAK_PAUSE_WRITERS_AT_S=60 SOAK_PAUSE_WRITERS_S=600 SOAK_NAME=soak-writers-stopped node bench/soak.js',
    'every activity writer stopped for 10 minutes under 300 requests/s',
    'every activity writer stopped for 10 minutes under 300 requests/s to one account, then started again; the catch-up ends when the lag is under 5 s and the activity queue under a second of traffic',
    catchUp,
  ),
  'soak-one-account-4-writers': soak(
    'SOAK_RATE=800 SOAK_WRITERS=4 SOAK_NAME=soak-one-account-4-writers node bench/soak.js',
    'one account at 800 requests/s for 10 minutes, four writers',
    "800 requests/s for 10 minutes to one account, with four activity writers running: one account is one partition, which one writer at a time writes. The whole system's 20-s burst (bench/system.js, 1,500–1,800 accepted/s) is not a rate it sustains here: at 1,600/s offered the machine saturates and deliveries fall behind as well as the log",
    shares,
  ),
  tenants: {
    title: 'Many endpoints',
    command: 'node bench/tenants.js',
    method:
      "The whole system with 1, 500, 1,000 and 10,000 endpoints over 10 accounts; each phase 20 s after 5 s of warm-up, 64 connections, each request to a random endpoint of the phase, senders spread over 1,000 loopback addresses. A phase's figure is its accepted/s ÷ the single-endpoint phases beside it.",
    figures: (r) => [
      ...r.phases
        .filter((/** @type {{ endpoints: number }} */ p) => p.endpoints > 1)
        .map((/** @type {{ endpoints: number; ratio_to_single: number }} */ p) =>
          fig(`${p.endpoints.toLocaleString('en-GB')} endpoints`, p.ratio_to_single, '× single'),
        ),
      fig('lost, duplicates', `${r.lost}, ${r.duplicates}`),
    ],
  },
  floor: {
    title: "The architecture's floor",
    command: 'node bench/floor.js',
    method:
      'express → quorum queue (confirmed) → got → receiver, nothing else: no endpoint, rules, limits or activity log; the whole-system load, with its ratio to bare express in the same run. What any design on these libraries could reach here.',
    figures: (r) => [fig('accepted/s', r.accepted_per_s), fig('ratio to bare express', r.ratio)],
  },
  'floor-with-log': {
    title: 'The floor with the least activity log',
    command: 'FLOOR_LOG=1 node bench/floor.js',
    method:
      "The floor plus the least the spec's work can cost with the same libraries: one Redis call per request, request and outcome records batched on an activity queue, a writer inserting one document per event.",
    figures: (r) => [
      fig('accepted/s', r.accepted_per_s),
      fig('ratio to bare express', r.ratio),
      fig('activity lag', r.activity_lag_s, 's'),
    ],
  },
  activity: {
    title: 'Activity log at 1,000,000 rows',
    command: 'node bench/activity.js',
    method:
      "One activity-writer and the management API; 1,000,000 rows preloaded through the writer's code over 7 days (50 endpoints, 1,000 source IPs, 5 % rejections, 2 % failed deliveries); 30 `GET /v1/activity?…&limit=50` per filter, every third following the cursor. Writer rows/s timed with the log empty and full.",
    figures: (r) => {
      /** @param {string} name */
      const q = (name) => r.queries.find((/** @type {{ filter: string }} */ x) => x.filter.startsWith(name));
      return [
        fig('writer, empty log', r.writer.empty.rows_per_s, 'rows/s'),
        fig('writer, 1,000,000 rows', r.writer.full.rows_per_s, 'rows/s'),
        ...['all', 'endpoint', 'errors', 'source IP', 'error text'].map((name) => p95(name, q(name))),
      ];
    },
  },
  'activity-writers': {
    title: 'Activity writers: 1, 2 and 4 at 1,000,000 rows',
    command: 'node bench/activity-writers.js',
    method:
      '1,000,000 rows preloaded over 64 accounts; for 1, 2 and 4 activity-writer processes, 20,000 accepted requests (a request and a delivered attempt each) published ahead and timed while the writers drain them, after a warm-up in which the partitions settle.',
    figures: (r) =>
      r.runs.map((/** @type {{ writers: number; rows_per_s: number }} */ run) =>
        fig(`${run.writers} writer${run.writers === 1 ? '' : 's'}`, run.rows_per_s, 'rows/s'),
      ),
  },
  rules: {
    title: 'Routing rules, a per-target limit and a transformation',
    command: 'node bench/rules.js',
    method:
      'The whole-system bench alternated between one plain target, targets routed by 2 rules (one matching nothing) under a limit, the same rules without the limit, a typical transformation (a few field renames) on every event, and the target ordered per key over 1,000 keys (docs/ordering.md); two rounds; ratios of the means.',
    figures: (r) => [
      fig('rules ÷ plain, accepted', r.ratios?.rules?.accepted),
      fig('rules ÷ plain, delivered', r.ratios?.rules?.delivered),
      fig('transformation ÷ plain, accepted', r.ratios?.transform?.accepted),
      fig('transformation ÷ plain, delivered', r.ratios?.transform?.delivered),
      fig('ordered ÷ plain, delivered', r.ratios?.ordered?.delivered),
      fig('lost', r.lost),
    ],
  },
  transform: {
    title: 'Transformation sandbox, in process',
    command: 'node bench/transform.js',
    method:
      "In one process, no servers: loading the QuickJS WebAssembly module; a typical transformation (a few renames of a 1 KB JSON body) called with a runtime made per call, on a tenant's reused runtime and frozen context (what the deliverer does), and through the sandbox thread one call at a time and 64 at a time.",
    figures: (r) => [
      fig('module load', r.module_load_ms, 'ms'),
      fig('sandbox thread start', r.runner_thread_start_ms, 'ms'),
      fig("a tenant's first call, p50", r.first_call_of_a_tenant_ms_p50, 'ms'),
      fig('calls/s, runtime per call', r.runtime_per_call?.calls_per_s),
      fig('calls/s, reused runtime and context', r.reused_runtime_and_context?.calls_per_s),
      fig('calls/s through the sandbox thread, one at a time', r.through_runner_thread?.calls_per_s),
      fig('calls/s through the sandbox thread, 64 at a time', r.through_runner_thread_64_at_a_time?.calls_per_s),
      fig(
        'through the thread, p50 / p99',
        `${r.through_runner_thread?.per_call_ms_p50} / ${r.through_runner_thread?.per_call_ms_p99}`,
        'ms',
      ),
    ],
  },
  'transform-call': {
    title: 'Transformation CPU per delivery',
    command: 'node bench/transform-call.js',
    method:
      "In one process, no servers: the deliverer's path from a delivery message to the delivery it sends (the typical transformation of the whole-system bench on its 1 KB JSON body, through the sandbox thread, 64 deliveries in flight); CPU time per delivery of the process, of its main thread and of the sandbox thread, medians of 3 rounds of 5,000. CPU time, unlike throughput, moves little with other load on the machine.",
    figures: (r) => [
      fig('process CPU per delivery', r.builds[0]?.process_us_per_call, 'µs'),
      fig('main thread CPU per delivery', r.builds[0]?.main_thread_us_per_call, 'µs'),
      fig('sandbox thread CPU per delivery', r.builds[0]?.sandbox_thread_us_per_call, 'µs'),
      fig('deliveries/s', r.builds[0]?.calls_per_s),
    ],
  },
  'transform-isolation': {
    title: "One account's endless transformation beside another account",
    command: 'node bench/transform-isolation.js',
    method:
      "The services as npm start runs them; account B with a typical transformation sends at a steady rate, alone and then while account A's endpoint runs a transformation that never ends (each call stopped at its budget). B's 202 and delivery latency.",
    figures: (r) => [
      fig('B alone: 202 p50 / p99', `${r.b_alone.b_202.p50_ms} / ${r.b_alone.b_202.p99_ms}`, 'ms'),
      fig('B alone: delivery p50 / p99', `${r.b_alone.b_delivery.p50_ms} / ${r.b_alone.b_delivery.p99_ms}`, 'ms'),
      fig('B beside A: 202 p50 / p99', `${r.b_beside_a_loop.b_202.p50_ms} / ${r.b_beside_a_loop.b_202.p99_ms}`, 'ms'),
      fig(
        'B beside A: delivery p50 / p99',
        `${r.b_beside_a_loop.b_delivery.p50_ms} / ${r.b_beside_a_loop.b_delivery.p99_ms}`,
        'ms',
      ),
      fig('B not delivered, alone / beside A', `${r.b_alone.b_not_delivered} / ${r.b_beside_a_loop.b_not_delivered}`),
      fig('B not accepted, alone / beside A', `${r.b_alone.b_not_accepted} / ${r.b_beside_a_loop.b_not_accepted}`),
    ],
  },
  'hostile-rules': {
    title: "One tenant's costly rules beside a quiet account",
    command: 'node bench/hostile-rules.js',
    method:
      'Calibration first, in the bench process before any load: µs of the event loop per unit of the rule-cost estimate (docs/security.md "Rule cost"), compiling (the estimate from the source) and matching (program size × characters), for ordinary patterns and for those whose compile program size does not show; the median of 9 timings, warm. Then one gateway with its default rule settings; a quiet account\'s endpoint without rules under 8 connections of `{}` POSTs for 15 s, five times in one run: alone; beside 4 closed-loop senders of bodies at the payload limit (256 KiB) to an endpoint whose every body-filter and field-rule slot is the worst admitted pattern (RE2 program size about 10,000; each request goes to the rule pool and is stopped at its deadline); beside the same senders with bodies just within `RULES_INLINE_COST` under the pattern of the highest measured cost per unit (run inline); and before each of those two, beside the same senders and bodies to an endpoint without rules (control). The figure that matters is the p99 over the control\'s (docs/security.md "Rule cost").',
    figures: (r) => [
      fig('quiet alone, p50 / p99', `${r.quiet_alone.p50_ms} / ${r.quiet_alone.p99_ms}`, 'ms'),
      ...['pool_control', 'pool', 'inline_control', 'inline'].map((name) =>
        fig(
          `beside the ${name.replace('_', ' ')} tenant, p50 / p99`,
          `${r.quiet_beside[name].p50_ms} / ${r.quiet_beside[name].p99_ms}`,
          'ms',
        ),
      ),
      fig(
        'p99 over control, pool / inline tenant',
        `${r.p99_over_control_ms.pool} / ${r.p99_over_control_ms.inline}`,
        'ms',
      ),
      ...(r.calibration
        ? [
            ...r.calibration.compiles.map(
              (/** @type {{ pattern: string; estimate: number; us: number; us_per_unit: number }} */ c) =>
                fig(`compile \`${c.pattern}\`: µs / estimate`, `${c.us} / ${c.estimate}`),
            ),
            ...r.calibration.matches.map(
              (/** @type {{ pattern: string; characters: number; estimate: number; us: number }} */ c) =>
                fig(`match \`${c.pattern}\` on ${c.characters} characters: µs / estimate`, `${c.us} / ${c.estimate}`),
            ),
            fig(
              'worst µs per unit, compile / match',
              `${r.calibration.worst_compile_us_per_unit} / ${r.calibration.worst_match_us_per_unit}`,
            ),
          ]
        : []),
    ],
  },
  'activity-scopes': {
    title: 'Writer cost per flush by spread',
    command: 'node bench/activity-scopes.js',
    method:
      "Flushes of 1,000 rows through the log's flush code into the local store, the rows spread over 1, 100, 1,000 and 10,000 endpoints (10 per account).",
    figures: (r) =>
      r.results.flatMap(
        (/** @type {{ endpoints: number; ms_per_flush: number; store_commands_per_flush: number }} */ x) => [
          fig(`ms per flush, ${x.endpoints.toLocaleString('en-GB')} endpoints`, x.ms_per_flush, 'ms'),
          fig(`store commands per flush, ${x.endpoints.toLocaleString('en-GB')} endpoints`, x.store_commands_per_flush),
        ],
      ),
  },
  'activity-search': {
    title: 'Activity search at 1,000,000 rows',
    command: 'node bench/activity-search.js',
    method:
      "1,000,000 rows over 7 days, the last day's payloads kept; 30 calls of each search (`limit=50`, every third following the cursor) and of each detail route.",
    figures: (r) => [
      ...r.searches.map((/** @type {{ search: string; p50_ms: number; p95_ms: number }} */ s) => p95(s.search, s)),
      ...r.detail.map((/** @type {{ route: string; p50_ms: number; p95_ms: number }} */ d) => p95(d.route, d)),
    ],
  },
  'bulk-retries': {
    title: 'Bulk retries at 1,000,000 documents',
    command: 'node bench/bulk-retries.js',
    method:
      "The `bulk_retries` collection preloaded with other accounts' jobs; 25 creates and 10 first pages of 20 jobs through the store.",
    figures: (r) => [
      fig('create p50 / p95', `${r.create_p50_ms} / ${r.create_p95_ms}`, 'ms'),
      fig('a page of 20, p50 / p95', `${r.list_p50_ms} / ${r.list_p95_ms}`, 'ms'),
    ],
  },
  gateway: {
    title: 'Ingest: gateway vs bare express',
    command: 'node bench/gateway.js',
    method:
      '64 keep-alive connections, 10 s after a 2 s warm-up, 1,008-byte JSON POSTs to one endpoint with one webhook target; no deliverer runs. Baseline: express 5 reading the body and answering 202.',
    figures: (r) => [
      fig('accepted/s', r.gateway.accepted_per_s),
      fig('p50 / p99', `${r.gateway.p50_ms} / ${r.gateway.p99_ms}`, 'ms'),
      fig('bare express', r.bare_express.accepted_per_s, 'req/s'),
      fig('ratio', r.ratio),
    ],
  },
  'verify-families': {
    title: 'Inbound verification per family',
    command: 'node bench/verify-families.js',
    method:
      "The gateway's inbound verification in process, no I/O, on a 1,008-byte body, one preset per verification family; 1 s of verifications after a warm-up.",
    figures: (r) =>
      r.results.map((/** @type {{ family: string; us_per_request: number }} */ x) =>
        fig(x.family, x.us_per_request, 'µs'),
      ),
  },
  deliverer: {
    title: 'One webhook-deliverer',
    command: 'node bench/deliverer.js',
    method:
      'Delivery messages for one webhook target on a local receiver, at most 64 outstanding, one webhook-deliverer (PREFETCH 32); latency publish → receiver. Then the same for a target whose limits never bind (every delivery through the target gate).',
    figures: (r) => [
      fig('deliveries/s', r.deliveries_per_s),
      fig('p50 / p99', `${r.p50_ms} / ${r.p99_ms}`, 'ms'),
      fig('limited target ÷ plain', r.limited_target?.vs_plain),
    ],
  },
  outputs: {
    title: 'One outputs deliverer',
    command: 'node bench/outputs.js',
    method:
      'The same closed loop for one outputs deliverer: an email target over STARTTLS and AUTH to a local SMTP server (4 sessions), then a spreadsheet target against a local HTTPS Google, then a Redis Streams target (XADD to the local Redis, read back with XREAD), then a RabbitMQ exchange target (persistent publishes with confirms to the local RabbitMQ, consumed from a queue bound to it), then a NATS JetStream target (publishes acknowledged by a file-backed stream on a private nats-server, consumed by an ordered consumer), then an SQS target (SendMessage to a local ElasticMQ the bench starts, read back with long polls of 10 and deleted), then an S3 target (PutObject to a local versitygw the bench starts, its bucket listed every 100 ms), then a Kafka target (idempotent produces with acks=all over SASL PLAIN to a single-node Kafka the bench starts, consumed from the topic).',
    figures: (r) =>
      r.results.flatMap(
        (/** @type {{ kind: string; deliveries_per_s: number; p50_ms: number; p99_ms: number }} */ x) => [
          fig(`${x.kind}, deliveries/s`, x.deliveries_per_s),
          fig(`${x.kind}, p50 / p99`, `${x.p50_ms} / ${x.p99_ms}`, 'ms'),
        ],
      ),
  },
  resend: {
    title: 'One event resent 1,000 times',
    command: 'node bench/resend.js',
    method:
      'One endpoint with 5 webhook targets, one event, then 1,000 resends; a row keeps at most 100 resent deliveries, so later resends answer 409.',
    figures: (r) => {
      const last = r.checkpoints[r.checkpoints.length - 1] ?? {};
      return [
        fig('row after the last resend', last.row_bytes, 'bytes'),
        fig('deliveries on the row', last.deliveries),
        fig('row read, median', last.read_p50_ms, 'ms'),
        fig('resend call, median', last.resend_p50_ms, 'ms'),
      ];
    },
  },
  tracing: {
    title: 'Tracing hooks',
    command: 'node bench/tracing.js',
    method:
      "The gateway's seven spans, a link check and a `traceparent` per event in one process, exported to a sink that drops them; CPU per event over the bare steps.",
    figures: (r) => [
      fig('tracing off', r.off_us_over_bare, 'µs per event'),
      fig('tracing on', r.on_us_over_bare, 'µs per event'),
    ],
  },
};

module.exports = { BENCHES };
