// Writes the generated parts of the docs (`npm run docs`) or, with --check, fails when any is
// stale or when a link between docs points at nothing (`npm run lint`). Run after `tsc -b`: the
// config specs, the target catalog and the preset catalog are read from the built workspaces.
// Besides the docs, it writes `.env.example`.
//   node scripts/docs.js [--check]
const fs = require('node:fs');
const path = require('node:path');
const { BENCHES } = require('../bench/catalog');
const { brokenLinks, docSections, generate, markdownFiles, staleFiles } = require('./docs/render');

const ROOT = path.join(__dirname, '..');

/** @param {string} file */
const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** @param {string} lib */
const built = (lib) => require(path.join(ROOT, lib, 'dist', 'index.js'));

const sections = docSections(ROOT, {
  services: () =>
    fs
      .readdirSync(path.join(ROOT, 'services'))
      .filter((name) => fs.existsSync(path.join(ROOT, 'services', name, 'src', 'config.ts')))
      .sort()
      .map((name) => ({ name, spec: require(path.join(ROOT, 'services', name, 'dist', 'config.js')).configSpec })),
  kinds: () => built('libs/targets').CATALOG.entries,
  presetTable: () => built('libs/endpoints').presetTable(),
  benches: BENCHES,
  describeConfig: built('libs/config').describeConfig,
});

if (process.argv.includes('--check')) {
  const stale = staleFiles(read, sections);
  const links = brokenLinks(ROOT, markdownFiles(ROOT));
  for (const file of stale) console.error(`${file}: a generated part is stale; run npm run docs`);
  for (const problem of links) console.error(`broken link in ${problem}`);
  if (stale.length > 0 || links.length > 0) process.exit(1);
} else {
  for (const [file, text] of generate(read, sections)) {
    if (read(file) !== text) {
      fs.writeFileSync(path.join(ROOT, file), text);
      console.log(`${file}: written`);
    }
  }
}
