import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeConfig } from '@relay/config';
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
  describeConfig,
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
      for (const v of Object.values(spec)) {
        expect(configuration).toContain(`| \`${v.env}\` |`);
        expect(docs.get('.env.example')).toContain(`\n${v.env}=`);
      }
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
    const run = [...script.matchAll(/^\s*(?:if .*then )?((?:[A-Z_]+=\S+ )*node bench\/[a-z-]+\.js)/gm)].map(
      (m) => m[1],
    );
    expect(run.sort()).toEqual(
      Object.values(BENCHES)
        .map((b) => b.command)
        .sort(),
    );
  });
});

describe('recording a bench run (scripts/bench-record.js)', () => {
  let from: string;
  let to: string;
  beforeAll(() => {
    from = mkdtempSync(path.join(tmpdir(), 'relay-bench-raw-'));
    to = mkdtempSync(path.join(tmpdir(), 'relay-bench-results-'));
    const system = {
      bench: 'system',
      at: '2026-11-28T10:00:00.000Z',
      accepted_per_s: 1900,
      delivered_per_s: 1800,
      ratio: 0.225,
      p50_ms: 30,
      p99_ms: 90,
      activity_lag_s: 1.5,
      lost: 0,
      duplicates: 0,
    };
    writeFileSync(path.join(from, 'system.json'), JSON.stringify(system));
    writeFileSync(path.join(from, 'not-a-bench.json'), '{}');
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/bench-record.js'), from, to], {
      // only this run's bench setting, whatever the calling shell exports
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BENCH_'))),
        BENCH_DURATION_S: '20',
      },
    });
  });
  afterAll(() => {
    rmSync(from, { recursive: true, force: true });
    rmSync(to, { recursive: true, force: true });
  });

  it("writes a catalogued bench's run with its date, this machine, the command and its figures", () => {
    const result = JSON.parse(readFileSync(path.join(to, 'system.json'), 'utf8'));
    expect(result).toMatchObject({
      bench: 'system',
      date: '2026-11-28T10:00:00.000Z',
      command: 'BENCH_DURATION_S=20 node bench/system.js',
    });
    expect(result.machine).toContain(`Node ${process.version}`);
    expect(result.figures).toContainEqual({ name: 'ratio to bare express', value: 0.225 });
    expect(result.figures).toContainEqual({ name: 'p50 / p99 of the 202', value: '30 / 90', unit: 'ms' });
    expect(result.source).toBeUndefined();
  });

  it('records nothing for a report of no catalogued bench', () => {
    expect(readdirSync(to)).toEqual(['system.json']);
  });
});
