// npm run bench: what routing rules and per-target limits cost the whole system. Runs
// bench/system.js as it is (every service its own process, one endpoint, autocannon) alternately
// plain and with BENCH_TARGET_RULES=1 — the receiver's target routed by two rules under a
// non-binding rate and in-flight limit, beside a second target whose rule matches nothing —
// BENCH_RULES_ROUNDS times (2; 1 in short mode), so both see the machine's drift alike; and
// `rules-only` (BENCH_TARGET_RULES=rules-only: the same rules, no limits), which separates what
// the rules cost from what the limit costs; and `transform` (BENCH_TRANSFORM=1: a typical
// transformation, a few renames, on every event; docs/transformations.md); and `ordered` (BENCH_ORDERING=1:
// the target ordered per key over 1,000 keys; docs/ordering.md asks delivered ≥ 0.8× plain). Prints accepted/s, delivered/s and p99 of each run,
// the ratio of the means (rules ÷ plain; the issue asks ≥ 0.9), and each process's CPU per event
// during the load (ms; CPU % × 10 ÷ events/s — the deliverer's per delivery made during the
// load, every other process's per accepted event), which a shared machine moves far less than
// it moves throughput. Writes <results>/rules.json; exits 1 if a run lost an event.
//
//   node bench/rules.js
//   BENCH_RULES_VARIANTS=plain,rules node bench/rules.js   # a subset (default: all five)
//   BENCH_RULES_VARIANTS=plain,ordered node bench/rules.js # ordering per key on vs off
//   BENCH_DURATION_S=3 node bench/rules.js   # short mode (test/bench/smoke.test.ts)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { envNumber: num } = require('./lib');
const { cpuPerEvent, mean, runSystem } = require('./system-runs');

const ROOT = path.resolve(__dirname, '..');
const SHORT = num(process.env.BENCH_DURATION_S, 20) <= 5;
const ROUNDS = num(process.env.BENCH_RULES_ROUNDS, SHORT ? 1 : 2);
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.join(ROOT, 'bench-results');
/** each variant's settings for bench/system.js */
const VARIANTS = {
  plain: {},
  rules: { BENCH_TARGET_RULES: '1' },
  'rules-only': { BENCH_TARGET_RULES: 'rules-only' },
  transform: { BENCH_TRANSFORM: '1' },
  ordered: { BENCH_ORDERING: '1' },
};
const CHOSEN = (process.env.BENCH_RULES_VARIANTS || Object.keys(VARIANTS).join(',')).split(',').map((v) => v.trim());
for (const v of CHOSEN)
  if (!(v in VARIANTS))
    throw new Error(`BENCH_RULES_VARIANTS: unknown variant ${v} (${Object.keys(VARIANTS).join(', ')})`);
if (!CHOSEN.includes('plain')) CHOSEN.unshift('plain');

/**
 * One bench/system.js run of this tree with the variant's settings; its report.
 * @param {keyof typeof VARIANTS} variant
 * @param {number} round
 */
const runVariant = (variant, round) =>
  runSystem({
    root: ROOT,
    resultsDir: path.join(RESULTS_DIR, 'rules-runs', `${variant}-${round}`),
    env: VARIANTS[variant],
    label: `${variant}, round ${round}`,
  });

async function main() {
  /** @type {Array<{ variant: string, round: number, accepted_per_s: number, delivered_per_s: number, p99_ms: number, lost: number, ratio_to_bare: number | null, cpu_ms_per_event: Record<string, number> }>} */
  const runs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const variant of /** @type {Array<keyof typeof VARIANTS>} */ (CHOSEN)) {
      process.stderr.write(`rules bench: round ${round}, ${variant}\n`);
      const r = await runVariant(variant, round);
      runs.push({
        variant,
        round,
        accepted_per_s: r.accepted_per_s,
        delivered_per_s: r.delivered_per_s,
        p99_ms: r.p99_ms,
        lost: r.lost,
        ratio_to_bare: r.ratio,
        cpu_ms_per_event: cpuPerEvent(r),
      });
    }
  }
  const of = (/** @type {string} */ v, /** @type {'accepted_per_s' | 'delivered_per_s'} */ k) =>
    mean(runs.filter((r) => r.variant === v).map((r) => r[k]));
  const ratio = (/** @type {string} */ v, /** @type {'accepted_per_s' | 'delivered_per_s'} */ k) =>
    Number((of(v, k) / of('plain', k)).toFixed(3));
  const variants = CHOSEN.filter((v) => v !== 'plain');
  /** the mean CPU ms per event of each process, per variant */
  const cpu = Object.fromEntries(
    CHOSEN.map((v) => {
      const mine = runs.filter((r) => r.variant === v);
      const names = Object.keys(mine[0]?.cpu_ms_per_event ?? {});
      return [
        v,
        Object.fromEntries(names.map((n) => [n, Number(mean(mine.map((r) => r.cpu_ms_per_event[n] ?? 0)).toFixed(3))])),
      ];
    }),
  );
  const report = {
    bench: 'rules',
    at: new Date().toISOString(),
    rounds: ROUNDS,
    runs,
    ...(CHOSEN.includes('rules')
      ? { accepted_ratio: ratio('rules', 'accepted_per_s'), delivered_ratio: ratio('rules', 'delivered_per_s') }
      : {}),
    ratios: Object.fromEntries(
      variants.map((v) => [v, { accepted: ratio(v, 'accepted_per_s'), delivered: ratio(v, 'delivered_per_s') }]),
    ),
    cpu_ms_per_event: cpu,
    lost: runs.reduce((a, r) => a + r.lost, 0),
  };
  const names = Object.keys(cpu.plain ?? {});
  const lines = [
    '',
    'routing rules, per-target limits, a transformation and ordering per key vs plain (bench/system.js each run, alternated)',
    'run            accepted/s  delivered/s  p99 ms  lost',
    ...runs.map(
      (r) =>
        `${`${r.variant} ${r.round}`.padEnd(13)}  ${String(r.accepted_per_s).padStart(10)}  ${String(r.delivered_per_s).padStart(11)}  ${String(r.p99_ms).padStart(6)}  ${r.lost}`,
    ),
    ...variants.map(
      (v) => `${v} ÷ plain (means): accepted ${report.ratios[v].accepted}, delivered ${report.ratios[v].delivered}`,
    ),
    '',
    'CPU ms per event during the load (means; deliverer: per delivery)',
    `${'process'.padEnd(20)}${CHOSEN.map((v) => v.padStart(12)).join('')}`,
    ...names.map((n) => `${n.padEnd(20)}${CHOSEN.map((v) => String(cpu[v][n] ?? '-').padStart(12)).join('')}`),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n${JSON.stringify(report)}\n`);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'rules.json'), `${JSON.stringify(report, null, 2)}\n`);
  return report.lost > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`bench/rules failed: ${err.stack || err}\n`);
    process.exit(1);
  },
);
