// Records raw bench reports as the committed results docs/benchmarks.md is generated from:
// each `<dir>/<bench>.json` of a bench in bench/catalog.js becomes bench/results/<bench>.json with
// the run's date, this machine, the command and the figures the catalog picks from the report.
// scripts/bench.sh runs it after the benches; then `npm run docs` rewrites the page.
//   node scripts/bench-record.js [from [to]]     (defaults bench-results/ and bench/results/)
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BENCHES } = require('../bench/catalog');

const ROOT = path.join(__dirname, '..');
const from = path.resolve(process.argv[2] ?? path.join(ROOT, 'bench-results'));
const to = path.resolve(process.argv[3] ?? path.join(ROOT, 'bench', 'results'));

function machine() {
  const release = fs.existsSync('/etc/os-release') ? fs.readFileSync('/etc/os-release', 'utf8') : '';
  const distro = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(release)?.[1] ?? `${os.type()} ${os.release()}`;
  const cpus = os.cpus();
  const gib = Math.round(os.totalmem() / 2 ** 30);
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${gib} GiB, ${distro}, Node ${process.version}; servers, services and load generator on this one host`;
}

/** The bench settings of this run: BENCH_* variables set when the benches ran. */
function settings() {
  return Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_') && name !== 'BENCH_RESULTS_DIR')
    .map(([name, value]) => `${name}=${value}`)
    .sort();
}

let recorded = 0;
for (const [name, bench] of Object.entries(BENCHES)) {
  const file = path.join(from, `${name}.json`);
  if (!fs.existsSync(file)) continue;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const result = {
    bench: name,
    date: typeof report.at === 'string' ? report.at : fs.statSync(file).mtime.toISOString(),
    machine: machine(),
    command: [...settings(), bench.command].join(' '),
    figures: bench.figures(report),
  };
  fs.mkdirSync(to, { recursive: true });
  fs.writeFileSync(path.join(to, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  recorded += 1;
}
console.log(`${to}: ${recorded} result(s) recorded from ${from}`);
