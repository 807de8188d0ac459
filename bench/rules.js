// npm run bench (issue 25): what routing rules and per-target limits cost the whole system. Runs
// bench/system.js as it is (every service its own process, one endpoint, autocannon) alternately
// plain and with BENCH_TARGET_RULES=1 — the receiver's target routed by two rules under a
// non-binding rate and in-flight limit, beside a second target whose rule matches nothing —
// BENCH_RULES_ROUNDS times (2; 1 in short mode), so both see the machine's drift alike. Prints
// accepted/s, delivered/s and p99 of each run and the ratio of the means (rules ÷ plain; the
// issue asks ≥ 0.9). Writes <results>/rules.json; exits 1 if a run lost an event.
//
//   node bench/rules.js
//   BENCH_DURATION_S=3 node bench/rules.js   # short mode (test/e2e/bench-smoke)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { envNumber: num } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const SHORT = num(process.env.BENCH_DURATION_S, 20) <= 5;
const ROUNDS = num(process.env.BENCH_RULES_ROUNDS, SHORT ? 1 : 2);
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.join(ROOT, 'bench-results');

/**
 * One bench/system.js run; its report.
 * @param {'plain' | 'rules'} variant
 * @param {number} round
 */
function runSystem(variant, round) {
  const dir = path.join(RESULTS_DIR, 'rules-runs', `${variant}-${round}`);
  const env = { ...process.env, BENCH_RESULTS_DIR: dir, BENCH_TARGET_RULES: variant === 'rules' ? '1' : '0' };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'system.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench/system.js (${variant}, round ${round}) exited ${code}`));
      resolve(JSON.parse(fs.readFileSync(path.join(dir, 'system.json'), 'utf8')));
    });
  });
}

/** @param {number[]} xs */
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main() {
  /** @type {Array<{ variant: string, round: number, accepted_per_s: number, delivered_per_s: number, p99_ms: number, lost: number, ratio_to_bare: number | null }>} */
  const runs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const variant of /** @type {const} */ (['plain', 'rules'])) {
      process.stderr.write(`rules bench: round ${round}, ${variant}\n`);
      const r = await runSystem(variant, round);
      runs.push({ variant, round, accepted_per_s: r.accepted_per_s, delivered_per_s: r.delivered_per_s, p99_ms: r.p99_ms, lost: r.lost, ratio_to_bare: r.ratio });
    }
  }
  const of = (/** @type {string} */ v, /** @type {'accepted_per_s' | 'delivered_per_s'} */ k) => mean(runs.filter((r) => r.variant === v).map((r) => r[k]));
  const report = {
    bench: 'rules',
    at: new Date().toISOString(),
    rounds: ROUNDS,
    runs,
    accepted_ratio: Number((of('rules', 'accepted_per_s') / of('plain', 'accepted_per_s')).toFixed(3)),
    delivered_ratio: Number((of('rules', 'delivered_per_s') / of('plain', 'delivered_per_s')).toFixed(3)),
    lost: runs.reduce((a, r) => a + r.lost, 0),
  };
  const lines = ['', 'routing rules and per-target limits vs plain (bench/system.js each run, alternated)', 'run            accepted/s  delivered/s  p99 ms  lost',
    ...runs.map((r) => `${`${r.variant} ${r.round}`.padEnd(13)}  ${String(r.accepted_per_s).padStart(10)}  ${String(r.delivered_per_s).padStart(11)}  ${String(r.p99_ms).padStart(6)}  ${r.lost}`),
    `rules ÷ plain (means): accepted ${report.accepted_ratio}, delivered ${report.delivered_ratio}`, ''];
  process.stdout.write(`${lines.join('\n')}\n${JSON.stringify(report)}\n`);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'rules.json'), `${JSON.stringify(report, null, 2)}\n`);
  return report.lost > 0 ? 1 : 0;
}

main().then((code) => process.exit(code), (err) => {
  process.stderr.write(`bench/rules failed: ${err.stack || err}\n`);
  process.exit(1);
});
