// The parts of the docs that code can produce, as pure functions of their sources: the
// environment variables (each service's config spec: a table and `.env.example`), the target kinds (the catalog), the
// libraries (the workspaces' package.json), the signature presets (the preset catalog) and the
// benchmark summary (bench/results/*.json). scripts/docs.js loads the sources and writes or
// checks the docs; the unit test feeds the same functions from source.
const fs = require('node:fs');
const path = require('node:path');

/**
 * @typedef {{ env: string; type: string; description: string; default?: unknown; min?: number; max?: number;
 *   values?: readonly string[]; secret?: boolean }} Var
 * @typedef {{ name: string; spec: Record<string, Var> }} ServiceSpec
 * @typedef {{ type: string; credential?: unknown }} Field
 * @typedef {{ kind: string; channel: string; defaultRetryScheduleMs: readonly number[];
 *   description: { label: string; fields: Record<string, Field> } }} KindInfo
 * @typedef {{ dir: string; name: string; description?: string }} Workspace
 * @typedef {{ name: string; value: number | string | null; unit?: string }} Figure
 * @typedef {{ bench: string; date: string; machine: string; command: string; figures: Figure[]; source?: string }} BenchResult
 * @typedef {{ title: string; method: string }} BenchInfo
 * @typedef {(spec: Record<string, any>) => string} DescribeConfig @relay/config's, which takes its narrower ConfigSpec
 * @typedef {{ file: string; render: () => string }} Section
 * @typedef {{ services: () => readonly ServiceSpec[]; kinds: () => readonly KindInfo[]; presetTable: () => string;
 *   benches: Record<string, BenchInfo>; describeConfig: DescribeConfig }} Sources
 */

/** @param {string} name */
const begin = (name) => `<!-- generated:${name} (npm run docs; do not edit by hand) -->`;
/** @param {string} name */
const end = (name) => `<!-- generated:${name}:end -->`;

/** @param {string} text */
const cell = (text) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** @param {number} n */
function number(n) {
  return Number.isInteger(n) && Math.abs(n) >= 1000 ? n.toLocaleString('en-GB') : String(n);
}

/** @param {Var} v */
function shownDefault(v) {
  if (v.secret) return '';
  if (v.default === undefined) return 'required';
  if (Array.isArray(v.default)) return v.default.length === 0 ? '(empty)' : `\`${v.default.join(',')}\``;
  if (v.default === '') return '(empty)';
  return `\`${typeof v.default === 'number' ? number(v.default) : String(v.default)}\``;
}

/** @param {Var} v */
function shownType(v) {
  if (v.type === 'enum') return (v.values ?? []).map((x) => `\`${x}\``).join(' \\| ');
  if (v.type === 'integer' && (v.min !== undefined || v.max !== undefined)) {
    return `integer ${v.min ?? ''}…${v.max === undefined ? '' : number(v.max)}`;
  }
  return v.type;
}

/**
 * Every variable any service reads: one row per variable and meaning, with the services that read
 * it so. A name read with different defaults or meanings (PORT, HEALTH_PORT) gets a row per meaning.
 * @param {readonly ServiceSpec[]} services
 */
function envTable(services) {
  /** @type {Map<string, { v: Var; services: string[] }>} */
  const rows = new Map();
  for (const { name, spec } of services) {
    for (const v of Object.values(spec)) {
      const key = JSON.stringify([v.env, v.type, v.description, v.default, v.min, v.max, v.values]);
      const row = rows.get(key);
      if (row) row.services.push(name);
      else rows.set(key, { v, services: [name] });
    }
  }
  const sorted = [...rows.values()].sort(
    (a, b) => a.v.env.localeCompare(b.v.env) || a.services[0].localeCompare(b.services[0]),
  );
  const all = services.length;
  return [
    '| variable | read by | type | default | meaning |',
    '|---|---|---|---|---|',
    ...sorted.map(
      ({ v, services: by }) =>
        `| \`${v.env}\` | ${by.length === all ? 'all' : by.join(', ')} | ${shownType(v)} | ${shownDefault(v)} | ${cell(v.description)} |`,
    ),
  ].join('\n');
}

/** Two services read "the same" variable when everything `.env.example` says about it agrees. */
const sameMeaning = (/** @type {Var} */ a, /** @type {Var} */ b) => {
  const shown = (/** @type {Var} */ v) => JSON.stringify([v.type, v.description, v.default, Boolean(v.secret)]);
  return shown(a) === shown(b);
};

/**
 * `.env.example`: every variable every service reads, with its one-line meaning and default
 * (`describeConfig`, as a service prints it). Variables that several services read with the same
 * meaning are written once, under "shared"; the rest by service. A name may appear under two
 * services with different defaults (PORT, HEALTH_PORT): one process reads one service's value.
 * @param {readonly ServiceSpec[]} services
 * @param {DescribeConfig} describeConfig
 */
function envExample(services, describeConfig) {
  /** @type {Map<string, { spec: Var; services: string[]; agree: boolean }>} */
  const readers = new Map();
  for (const { name, spec } of services) {
    for (const v of Object.values(spec)) {
      const seen = readers.get(v.env);
      if (!seen) readers.set(v.env, { spec: v, services: [name], agree: true });
      else {
        seen.services.push(name);
        seen.agree &&= sameMeaning(seen.spec, v);
      }
    }
  }
  const isShared = (/** @type {string} */ env) => {
    const r = readers.get(env);
    return r !== undefined && r.services.length > 1 && r.agree;
  };
  /** @type {Record<string, Var>} */
  const shared = {};
  for (const [env, r] of readers) if (isShared(env)) shared[env] = r.spec;

  const out = [
    '# Relay configuration: every environment variable the services read, with its meaning.',
    '# Generated from services/*/src/config.ts (configSpec) by `npm run docs`; do not edit by hand.',
    '# An empty value is either required (marked so) or a secret whose default is not printed.',
    '',
  ];
  if (Object.keys(shared).length > 0) {
    out.push('# ---- shared: read with the same meaning by every service listed after it');
    for (const [env, v] of Object.entries(shared))
      out.push(`# read by: ${readers.get(env)?.services.join(', ')}`, describeConfig({ [env]: v }));
    out.push('');
  }
  for (const { name, spec } of services) {
    /** @type {Record<string, Var>} */
    const own = {};
    const alsoShared = [];
    for (const [key, v] of Object.entries(spec)) {
      if (isShared(v.env)) alsoShared.push(v.env);
      else own[key] = v;
    }
    out.push(`# ---- ${name} (services/${name}/src/config.ts)`);
    if (alsoShared.length > 0) out.push(`# also reads (see shared): ${alsoShared.join(', ')}`);
    if (Object.keys(own).length > 0) out.push(describeConfig(own));
    out.push('');
  }
  return out.join('\n');
}

/** @param {number} ms */
function duration(ms) {
  if (ms % 3600000 === 0) return `${ms / 3600000} h`;
  if (ms % 60000 === 0) return `${ms / 60000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** @param {readonly KindInfo[]} kinds */
function kindsTable(kinds) {
  return [
    '| kind | what it sends | channel (queue) | default retry delays | settings (credentials in bold) |',
    '|---|---|---|---|---|',
    ...kinds.map((k) => {
      const fields = Object.entries(k.description.fields).map(([name, f]) => (f.credential ? `**${name}**` : name));
      const delays = k.defaultRetryScheduleMs.map(duration).join(', ');
      return `| \`${k.kind}\` | ${cell(k.description.label)} | \`${k.channel}\` | ${delays} | ${fields.join(', ')} |`;
    }),
  ].join('\n');
}

/** @param {readonly Workspace[]} workspaces */
function librariesTable(workspaces) {
  const missing = workspaces.filter((w) => !w.description);
  if (missing.length > 0) {
    throw new Error(`package.json without a description: ${missing.map((w) => w.dir).join(', ')}`);
  }
  return [
    '| workspace | package | what it is |',
    '|---|---|---|',
    ...workspaces.map((w) => `| \`${w.dir}\` | \`${w.name}\` | ${cell(w.description ?? '')} |`),
  ].join('\n');
}

/** @param {Figure} f */
function figure(f) {
  const value = typeof f.value === 'number' ? number(f.value) : (f.value ?? '—');
  return `${value}${f.unit ? ` ${f.unit}` : ''}`;
}

/**
 * docs/benchmarks.md: how the figures are made, the current one of each bench, and how to
 * reproduce them: the fixed text, each bench's title and method from bench/catalog.js, and its
 * figures, date, machine and command from bench/results/<bench>.json. Benches in catalog order.
 * @param {readonly BenchResult[]} results
 * @param {Record<string, BenchInfo>} catalog
 */
function benchmarksDoc(results, catalog) {
  const unknown = results.filter((r) => !catalog[r.bench]).map((r) => r.bench);
  if (unknown.length > 0)
    throw new Error(`bench/results has results of benches not in bench/catalog.js: ${unknown.join(', ')}`);
  const ordered = Object.keys(catalog).flatMap((name) => results.filter((r) => r.bench === name));
  /** @param {BenchResult} r */
  const title = (r) => catalog[r.bench].title;
  const machines = [...new Set(ordered.map((r) => r.machine))];
  const out = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run docs` from bench/results/*.json; do not edit by hand. -->',
    '',
    '`npm run bench` (`scripts/bench.sh`) provisions the local servers, builds, runs every bench of',
    '`bench/catalog.js` and records each result in `bench/results/<bench>.json` with its date, machine and',
    'command (`scripts/bench-record.js`); `npm run docs` then rewrites this page from those files.',
    'A result file holds `bench`, `date` (ISO 8601), `machine`, `command`, `figures` (`name`, `value`,',
    '`unit`) and, for figures not written by a run, `source`. Commit the result files with the change',
    'they measure. Speed is checked here, never by timed assertions in tests.',
    'One bench alone: its command below with `BENCH_RESULTS_DIR=<dir>`, then',
    '`node scripts/bench-record.js <dir>` and `npm run docs`.',
    '',
    'Method: everything runs on loopback on one machine — the services, RabbitMQ, Redis, the store',
    '(FerretDB on PostgreSQL) and the load generator share its cores, so read the figures as this',
    'machine\'s, and compare runs only on the same machine. "Quiet" means no other work ran. Load is',
    "closed-loop (autocannon or the benches' own senders); latency is measured at the sender.",
    'Design decisions these figures supported are in [decisions](decisions/).',
    '',
    '| bench | date | machine | command |',
    '|---|---|---|---|',
    ...ordered.map(
      (r) =>
        `| [${title(r)}](#${slug(title(r))}) | ${r.date.slice(0, 10)} | ${machines.indexOf(r.machine) + 1} | \`${cell(r.command)}\` |`,
    ),
    '',
    'Machines:',
    '',
    ...machines.map((m, i) => `${i + 1}. ${m}`),
  ];
  for (const r of ordered) {
    out.push('', `## ${title(r)}`, '', catalog[r.bench].method, '');
    out.push('| figure | value |', '|---|---|', ...r.figures.map((f) => `| ${cell(f.name)} | ${figure(f)} |`));
    if (r.source) out.push('', `Source: ${r.source}.`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * GitHub's anchor of a heading.
 * @param {string} heading
 */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * `text` with the section `name` between its markers replaced by `body`.
 * @param {string} text
 * @param {string} name
 * @param {string} body
 * @param {string} file for the error
 */
function replaceSection(text, name, body, file) {
  const from = text.indexOf(begin(name));
  const to = text.indexOf(end(name));
  if (from < 0 || to < from) throw new Error(`${file} has no generated:${name} markers`);
  return `${text.slice(0, from)}${begin(name)}\n${body}\n${end(name)}${text.slice(to + end(name).length)}`;
}

/**
 * The docs as they should be: file → text, from the current texts and the sections' renderers.
 * A section named `*` is a whole generated file.
 * @param {(file: string) => string} read
 * @param {Record<string, Section>} sections
 */
function generate(read, sections) {
  /** @type {Map<string, string>} */
  const files = new Map();
  for (const [name, { file, render }] of Object.entries(sections)) {
    // a name starting with '*' is a whole generated file
    const whole = name.startsWith('*');
    const text = files.get(file) ?? (whole ? '' : read(file));
    files.set(file, whole ? render() : replaceSection(text, name, render(), file));
  }
  return files;
}

/**
 * The generated files whose committed text differs from what the sources give.
 * @param {(file: string) => string} read
 * @param {Record<string, Section>} sections
 */
function staleFiles(read, sections) {
  return [...generate(read, sections)].filter(([file, text]) => read(file) !== text).map(([file]) => file);
}

/**
 * Relative links in markdown that point at nothing: a missing file, or a `#anchor` that is not a
 * heading of the file it names. External links and links into code are checked for existence only.
 * @param {string} root
 * @param {readonly string[]} files markdown files relative to root
 */
function brokenLinks(root, files) {
  /** @type {Map<string, Set<string>>} */
  const anchors = new Map();
  /** @param {string} file */
  const anchorsOf = (file) => {
    let set = anchors.get(file);
    if (!set) {
      set = new Set();
      /** @type {Map<string, number>} */
      const seen = new Map();
      for (const line of fs
        .readFileSync(path.join(root, file), 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .split('\n')) {
        const m = /^#{1,6}\s+(.*)$/.exec(line);
        if (!m) continue;
        const base = slug(m[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        set.add(n === 0 ? base : `${base}-${n}`);
      }
      anchors.set(file, set);
    }
    return set;
  };
  /** @type {string[]} */
  const problems = [];
  for (const file of files) {
    // code blocks and inline code hold no links
    const text = fs
      .readFileSync(path.join(root, file), 'utf8')
      .replace(/```[\s\S]*?```/g, '')
      .replace(/`[^`\n]*`/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target)) continue;
      const [where, anchor] = target.split('#');
      const resolved = where === '' ? file : path.normalize(path.join(path.dirname(file), where));
      if (!fs.existsSync(path.join(root, resolved))) {
        problems.push(`${file}: ${target} (no such file)`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
        problems.push(`${file}: ${target} (no such heading)`);
      }
    }
  }
  return problems;
}

/**
 * The workspaces of the repository with their package.json name and description.
 * @param {string} root
 * @returns {Workspace[]}
 */
function workspaces(root) {
  const dirs = (/** @type {string} */ dir) =>
    fs
      .readdirSync(path.join(root, dir), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `${dir}/${d.name}`)
      .sort();
  return [...dirs('libs'), ...dirs('services'), 'services/management-api/dashboard']
    .filter((dir) => fs.existsSync(path.join(root, dir, 'package.json')))
    .map((dir) => {
      const pkg = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
      return { dir, name: pkg.name, description: pkg.description };
    });
}

/**
 * The committed bench results, bench/results/*.json.
 * @param {string} root
 * @returns {BenchResult[]}
 */
function benchResults(root) {
  const dir = path.join(root, 'bench', 'results');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}

/**
 * Every generated part of the docs: its file and how to make it. A section named `*` is a
 * whole file.
 * @param {string} root
 * @param {Sources} sources
 * @returns {Record<string, Section>}
 */
function docSections(root, sources) {
  return {
    env: { file: 'docs/configuration.md', render: () => envTable(sources.services()) },
    kinds: { file: 'docs/delivery.md', render: () => kindsTable(sources.kinds()) },
    libraries: { file: 'docs/architecture.md', render: () => librariesTable(workspaces(root)) },
    presets: { file: 'docs/inbound-auth.md', render: sources.presetTable },
    '*benchmarks': { file: 'docs/benchmarks.md', render: () => benchmarksDoc(benchResults(root), sources.benches) },
    '*env-example': { file: '.env.example', render: () => envExample(sources.services(), sources.describeConfig) },
  };
}

/**
 * The markdown files whose links are checked: the README, CONTRIBUTING and every doc.
 * @param {string} root
 */
function markdownFiles(root) {
  const docs = (/** @type {string} */ dir) =>
    fs
      .readdirSync(path.join(root, dir))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `${dir}/${f}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs('docs'), ...docs('docs/decisions')];
}

module.exports = {
  docSections,
  markdownFiles,
  benchmarksDoc,
  brokenLinks,
  envExample,
  envTable,
  generate,
  kindsTable,
  librariesTable,
  slug,
  staleFiles,
};
