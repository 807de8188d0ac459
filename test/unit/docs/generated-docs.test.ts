import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CATALOG } from '@relay/targets';
import { presetTable } from '@relay/endpoints';
import { BENCHES } from '../../../bench/catalog';
import { brokenLinks, docSections, generate, markdownFiles, staleFiles } from '../../../scripts/docs/render';
import { ROOT, loadServiceSpecs } from '../deploy/service-specs';

/** The generated parts of the docs from the workspaces' sources, as `npm run docs` makes them from their builds. */
const sources = {
  services: loadServiceSpecs,
  kinds: () => CATALOG.entries,
  presetTable,
  benches: BENCHES,
};
const sections = docSections(ROOT, sources);
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('the generated parts of the docs (npm run docs, checked by npm run lint)', () => {
  it('are committed as the sources give them', () => {
    expect(staleFiles(read, sections)).toEqual([]);
  });

  it('are stale when a generated table was edited by hand', () => {
    const edited = (file: string) =>
      file === 'docs/configuration.md'
        ? read(file).replace(
            '| `RELAY_NAMESPACE` | all | string | `relay` |',
            '| `RELAY_NAMESPACE` | all | string | `relay2` |',
          )
        : read(file);
    expect(read('docs/configuration.md')).toContain('| `RELAY_NAMESPACE` | all | string | `relay` |');
    expect(staleFiles(edited, sections)).toEqual(['docs/configuration.md']);
  });

  it('are stale when a source changed and the docs were not regenerated', () => {
    const changed = docSections(ROOT, {
      ...sources,
      kinds: () => [...CATALOG.entries, { ...CATALOG.entries[0]!, kind: 'carrier_pigeon' }],
    });
    expect(staleFiles(read, changed)).toEqual(['docs/delivery.md']);
  });

  it('refuse a file whose markers are gone, naming it', () => {
    const unmarked = (file: string) => (file === 'docs/delivery.md' ? '# Delivery\n' : read(file));
    expect(() => generate(unmarked, sections)).toThrow('docs/delivery.md has no generated:kinds markers');
  });

  it('show every variable of every service, every kind and every workspace', () => {
    const docs = generate(read, sections);
    const configuration = docs.get('docs/configuration.md') ?? '';
    for (const { spec } of loadServiceSpecs()) {
      for (const v of Object.values(spec)) expect(configuration).toContain(`| \`${v.env}\` |`);
    }
    for (const entry of CATALOG.entries) expect(docs.get('docs/delivery.md')).toContain(`| \`${entry.kind}\` |`);
    expect(docs.get('docs/architecture.md')).toContain('| `libs/activity-log` | `@relay/activity-log` |');
  });
});

describe('links between docs', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'relay-docs-'));
    mkdirSync(path.join(dir, 'docs'));
    writeFileSync(
      path.join(dir, 'docs', 'a.md'),
      '# A\n\n## The `first` part\n\n## Part two\n\n```\n## not a heading\n```\n',
    );
    writeFileSync(
      path.join(dir, 'README.md'),
      [
        '[ok](docs/a.md) [ok](docs/a.md#the-first-part) [ok](docs/a.md#part-two) [web](https://example.com/x#y)',
        '[gone](docs/b.md) [no heading](docs/a.md#part-three) [in a block](docs/a.md#not-a-heading)',
      ].join('\n'),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('report a missing file and a missing heading, and accept the rest', () => {
    expect(brokenLinks(dir, ['README.md', 'docs/a.md'])).toEqual([
      'README.md: docs/b.md (no such file)',
      'README.md: docs/a.md#part-three (no such heading)',
      'README.md: docs/a.md#not-a-heading (no such heading)',
    ]);
  });

  it('all resolve in the committed docs', () => {
    expect(brokenLinks(ROOT, markdownFiles(ROOT))).toEqual([]);
  });
});

describe('the bench catalog', () => {
  it('names every bench scripts/bench.sh runs, and nothing else', () => {
    const script = read('scripts/bench.sh');
    const run = [...script.matchAll(/^(?:if .*then )?((?:[A-Z_]+=\S+ )*node bench\/[a-z-]+\.js)/gm)].map((m) => m[1]);
    expect(run.sort()).toEqual(
      Object.values(BENCHES)
        .map((b) => b.command)
        .sort(),
    );
  });
});
