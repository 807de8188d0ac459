// npm run bench: the whole-system figure of this tree against an earlier build of Relay, in one
// session: bench/system.js as it is, run alternately in this tree and in a checkout of
// BENCH_BASELINE (a commit, default HEAD: this tree's uncommitted change against its last
// commit), B A A B B A A B for BENCH_VS_ROUNDS rounds (4; 1 in short mode), so both builds see the
// machine's drift alike, after a short run that is not counted (a session's first run reads low).
// The baseline is checked out as a git worktree beside the repository's (BENCH_BASELINE_DIR,
// default <tmp>/relay-baseline-<commit>), linked to this tree's installed packages and built with
// `tsc -b`; a worktree already built for that commit is reused. BENCH_BASELINE_TREE instead names
// a tree already built, used as it is (no git needed). Reports each run's ratio to bare express,
// accepted/s, delivered/s and CPU ms per event by process, and the means' ratios (this tree ÷
// baseline). Writes <results>/system-vs.json; exits 1 if a run lost an event.
//
//   BENCH_BASELINE=33c42168 node bench/system-vs.js
//   BENCH_BASELINE_TREE=../relay-old node bench/system-vs.js
//   BENCH_DURATION_S=3 node bench/system-vs.js      # short mode (test/bench/smoke.test.ts)
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { envNumber: num } = require('./lib');
const { cpuPerEvent, mean, runSystem } = require('./system-runs');

const ROOT = path.resolve(__dirname, '..');
const SHORT = num(process.env.BENCH_DURATION_S, 20) <= 5;
const ROUNDS = num(process.env.BENCH_VS_ROUNDS, SHORT ? 1 : 4);
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.join(ROOT, 'bench-results');

const git = (/** @type {string[]} */ args, cwd = ROOT) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
/** `git …`, or null where there is no repository (a tree unpacked from an archive) */
const gitOrNull = (/** @type {string[]} */ args, cwd = ROOT) => {
  try {
    return git(args, cwd);
  } catch {
    return null;
  }
};

/**
 * A built checkout of `commit`: a detached worktree whose packages are this tree's (node_modules
 * linked; the workspaces' own packages linked to the worktree's), then `tsc -b`. Reused when a
 * build of that commit is there already.
 * @param {string} commit
 * @returns {string} its directory
 */
function baselineTree(commit) {
  const dir = process.env.BENCH_BASELINE_DIR || path.join(os.tmpdir(), `relay-baseline-${commit.slice(0, 12)}`);
  const built = path.join(dir, '.relay-baseline-built');
  if (fs.existsSync(built) && fs.readFileSync(built, 'utf8') === commit) return dir;
  if (fs.existsSync(dir)) git(['worktree', 'remove', '--force', dir]);
  git(['worktree', 'add', '--detach', '--force', dir, commit]);
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(path.join(modules, '@relay'), { recursive: true });
  for (const name of fs.readdirSync(path.join(ROOT, 'node_modules')))
    if (name !== '@relay') fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name));
  // each workspace of the baseline under its own name, and the packages only a workspace installed
  for (const group of ['libs', 'services']) {
    const base = path.join(dir, group);
    if (!fs.existsSync(base)) continue;
    for (const entry of fs.readdirSync(base)) {
      const manifest = path.join(base, entry, 'package.json');
      if (!fs.existsSync(manifest)) continue;
      const { name } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      if (typeof name === 'string' && name.startsWith('@relay/'))
        fs.symlinkSync(path.join(base, entry), path.join(modules, name));
      const own = path.join(ROOT, group, entry, 'node_modules');
      if (fs.existsSync(own) && !fs.existsSync(path.join(base, entry, 'node_modules')))
        fs.symlinkSync(own, path.join(base, entry, 'node_modules'));
    }
  }
  const infra = path.join(ROOT, '.infra');
  if (fs.existsSync(infra)) fs.symlinkSync(infra, path.join(dir, '.infra'));
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], {
    cwd: dir,
    stdio: 'inherit',
  });
  fs.writeFileSync(built, commit);
  return dir;
}

/** This tree's commit, marked when it has uncommitted changes; `this tree` outside a repository. */
function thisName() {
  const head = gitOrNull(['rev-parse', 'HEAD']);
  if (head === null) return 'this tree';
  return head + (gitOrNull(['status', '--porcelain', '--untracked-files=no']) ? ' (with changes)' : '');
}

async function main() {
  const given = process.env.BENCH_BASELINE_TREE ? path.resolve(process.env.BENCH_BASELINE_TREE) : null;
  const commit = given ? null : git(['rev-parse', '--verify', `${process.env.BENCH_BASELINE || 'HEAD'}^{commit}`]);
  if (commit) process.stderr.write(`system-vs bench: building ${commit.slice(0, 12)} as the baseline\n`);
  const trees = { baseline: given ?? baselineTree(/** @type {string} */ (commit)), this: ROOT };
  const baselineName = commit ?? gitOrNull(['rev-parse', 'HEAD'], trees.baseline) ?? trees.baseline;
  if (!SHORT) {
    process.stderr.write('system-vs bench: a short run first, not counted\n');
    await runSystem({
      root: ROOT,
      resultsDir: path.join(RESULTS_DIR, 'system-vs-runs', 'warm-up'),
      env: { BENCH_DURATION_S: '3' },
      label: 'warm-up',
    });
  }
  /** @type {Array<{ tree: 'this' | 'baseline', round: number, ratio_to_bare: number, accepted_per_s: number, delivered_per_s: number, lost: number, duplicates: number, cpu_ms_per_event: Record<string, number> }>} */
  const runs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // B A, then A B: neither build always goes first
    /** @type {Array<'this' | 'baseline'>} */
    const order = round % 2 === 1 ? ['baseline', 'this'] : ['this', 'baseline'];
    for (const tree of order) {
      process.stderr.write(`system-vs bench: round ${round}, ${tree}\n`);
      const r = await runSystem({
        root: trees[tree],
        resultsDir: path.join(RESULTS_DIR, 'system-vs-runs', `${tree}-${round}`),
        label: `${tree}, round ${round}`,
      });
      runs.push({
        tree,
        round,
        ratio_to_bare: r.ratio,
        accepted_per_s: r.accepted_per_s,
        delivered_per_s: r.delivered_per_s,
        lost: r.lost,
        duplicates: r.duplicates,
        cpu_ms_per_event: cpuPerEvent(r),
      });
    }
  }
  const of = (
    /** @type {'this' | 'baseline'} */ tree,
    /** @type {'ratio_to_bare' | 'accepted_per_s' | 'delivered_per_s'} */ k,
  ) => mean(runs.filter((r) => r.tree === tree).map((r) => r[k]));
  const vs = (/** @type {'ratio_to_bare' | 'accepted_per_s' | 'delivered_per_s'} */ k) =>
    Number((of('this', k) / of('baseline', k)).toFixed(3));
  const report = {
    bench: 'system-vs',
    at: new Date().toISOString(),
    baseline: baselineName,
    this: thisName(),
    rounds: ROUNDS,
    runs,
    means: Object.fromEntries(
      /** @type {const} */ (['this', 'baseline']).map((t) => [
        t,
        {
          ratio_to_bare: Number(of(t, 'ratio_to_bare').toFixed(3)),
          accepted_per_s: Math.round(of(t, 'accepted_per_s')),
          delivered_per_s: Math.round(of(t, 'delivered_per_s')),
        },
      ]),
    ),
    this_over_baseline: {
      ratio_to_bare: vs('ratio_to_bare'),
      accepted_per_s: vs('accepted_per_s'),
      delivered_per_s: vs('delivered_per_s'),
    },
    lost: runs.reduce((a, r) => a + r.lost, 0),
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'system-vs.json'), `${JSON.stringify(report, null, 2)}\n`);
  const lines = [
    '',
    `the whole system, this tree against ${baselineName} (bench/system.js each run, alternated)`,
    'run              ratio  accepted/s  delivered/s  lost',
    ...runs.map(
      (r) =>
        `${`${r.tree} ${r.round}`.padEnd(15)}  ${r.ratio_to_bare.toFixed(3)}  ${String(r.accepted_per_s).padStart(10)}  ${String(r.delivered_per_s).padStart(11)}  ${r.lost}`,
    ),
    `this ÷ baseline, means: ratio ${report.this_over_baseline.ratio_to_bare}, accepted ${report.this_over_baseline.accepted_per_s}, delivered ${report.this_over_baseline.delivered_per_s}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n${JSON.stringify(report)}\n`);
  if (report.lost > 0) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
