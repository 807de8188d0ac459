// Whole runs of bench/system.js for the benches that compare them (bench/rules.js: variants of
// this tree; bench/system-vs.js: this tree against an earlier build), and what they read from
// each report.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

/**
 * One bench/system.js run of the tree at `root`, with `env` added and its report written under
 * `resultsDir`; resolves to the report. Rejects if the run exits non-zero (it lost an event, or failed).
 * @param {{ root: string, resultsDir: string, env?: Record<string, string>, label: string }} run
 * @returns {Promise<any>}
 */
function runSystem(run) {
  const env = { ...process.env, BENCH_RESULTS_DIR: run.resultsDir, ...run.env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(run.root, 'bench', 'system.js')], {
      cwd: run.root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench/system.js (${run.label}) exited ${code}`));
      resolve(JSON.parse(fs.readFileSync(path.join(run.resultsDir, 'system.json'), 'utf8')));
    });
  });
}

/** @param {number[]} xs */
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * CPU ms per event of each sampled process during the measured load: the deliverer's per
 * delivery it made meanwhile, every other process's per accepted event.
 * @param {{ accepted_per_s: number, relay: { delivered_during_load_per_s: number }, resources: { during_load: Record<string, { cpu_pct: number }> } }} r
 */
function cpuPerEvent(r) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const [name, p] of Object.entries(r.resources.during_load)) {
    const perS = name === 'webhook-deliverer' ? r.relay.delivered_during_load_per_s : r.accepted_per_s;
    if (perS > 0) out[name] = Number(((p.cpu_pct * 10) / perS).toFixed(3));
  }
  return out;
}

module.exports = { runSystem, mean, cpuPerEvent };
