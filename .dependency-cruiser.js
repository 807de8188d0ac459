// The import graph's rules, checked by `npm run lint` (lint:imports): libs and services import
// no module that imports them back (type-only imports count: a cycle of types is still one
// design), no service reaches into another service or a lib into a service, and nothing under a
// src/ folder imports a package that only the tests use.
const fs = require('node:fs');
const path = require('node:path');

const root = require('./package.json');

/** Every `dependencies` entry of the workspaces (what ships in some image). */
function shippedPackages() {
  const names = new Set();
  for (const group of ['libs', 'services']) {
    for (const dir of fs.readdirSync(path.join(__dirname, group))) {
      for (const manifest of [
        path.join(__dirname, group, dir, 'package.json'),
        path.join(__dirname, group, dir, 'dashboard', 'package.json'),
      ]) {
        if (!fs.existsSync(manifest)) continue;
        for (const name of Object.keys(require(manifest).dependencies ?? {})) names.add(name);
      }
    }
  }
  return names;
}

/** The tools that build, type-check, lint and run the tests: never imported by code at all. */
const TOOLS =
  /^(@types\/|@redocly\/cli$|dependency-cruiser$|eslint$|jest$|prettier$|sucrase$|@sucrase\/jest-plugin$|typescript$|typescript-eslint$)/;

/** The root's dev dependencies that no workspace ships: the tests' oracles, fakes and drivers. */
const shipped = shippedPackages();
const testOnly = Object.keys(root.devDependencies).filter((name) => !TOOLS.test(name) && !shipped.has(name));
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A module of libs/ or services/ imports one that imports it back, directly or through others.',
      from: { path: '^(libs|services)/' },
      to: { circular: true },
    },
    {
      name: 'service-imports-another-service',
      severity: 'error',
      comment: 'A service uses libraries only; what two services share belongs in libs/.',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'lib-imports-a-service',
      severity: 'error',
      comment: 'Libraries are shared by services and never depend on one.',
      from: { path: '^libs/' },
      to: { path: '^services/' },
    },
    {
      name: 'src-imports-test-only-package',
      severity: 'error',
      comment: `Code under src/ ships; these packages are the tests' own (root devDependencies no workspace ships): ${testOnly.join(', ')}.`,
      from: { path: '^(libs|services)/[^/]+/(dashboard/)?src/' },
      to: { path: `^node_modules/(${testOnly.map(escape).join('|')})/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|coverage)/' },
    // @relay/* resolves to each library's src (the tests' tsconfig paths), so no build is needed
    tsConfig: { fileName: 'tsconfig.test.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
