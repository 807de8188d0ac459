// Writes test/durations.json: every test file that took 10 s or more in this checkout's last
// Jest runs, with its seconds, from Jest's own record of them (a file per project in its cache
// directory). test/sequencer.js starts those files first where Jest has no record (a fresh CI
// runner). Run it after a whole `npm test`:
//   node scripts/test-durations.js
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'test', 'durations.json');
/** shorter files are left to Jest's own order */
const MIN_SECONDS = 10;

/** @type {{ configs: Array<{ id: string; cacheDirectory: string }> }} */
const shown = JSON.parse(
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'jest'), ['--showConfig'], { cwd: ROOT, encoding: 'utf8' }),
);
/** @type {Record<string, number>} */
const seconds = {};
for (const config of shown.configs) {
  // Jest's name for it: perf-cache-<project id>-<a hash>
  const files = fs.existsSync(config.cacheDirectory)
    ? fs.readdirSync(config.cacheDirectory).filter((f) => f.startsWith(`perf-cache-${config.id}`))
    : [];
  for (const file of files) {
    /** @type {Record<string, [number, number]>} */
    const record = JSON.parse(fs.readFileSync(path.join(config.cacheDirectory, file), 'utf8'));
    for (const [testPath, [, ms]] of Object.entries(record)) {
      const rel = path.relative(ROOT, testPath).split(path.sep).join('/');
      if (!rel.startsWith('..') && fs.existsSync(testPath) && ms >= MIN_SECONDS * 1000)
        seconds[rel] = Math.round(ms / 1000);
    }
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
fs.writeFileSync(OUT, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${path.relative(ROOT, OUT)}: ${Object.keys(sorted).length} files of ${MIN_SECONDS} s or more`);
