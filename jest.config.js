// Three tiers (see docs/testing.md): unit tests need nothing running; integration and
// end-to-end tests need the real local Redis, RabbitMQ and FerretDB that `npm run infra:up`
// provisions. Tests import workspace libraries from source, so they never test stale builds
// of a lib; end-to-end tests spawn the built services (npm test builds first).
// Sucrase strips the types of each file on its own (pure JS), about ten times faster than
// TypeScript's transpiler: a run on a fresh machine, whose transform cache is empty, pays that
// for every file. The types are checked by `npm run lint` (tsc -p tsconfig.test.json).
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': '@sucrase/jest-plugin' },
  moduleNameMapper: { '^@relay/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts' },
  rootDir: __dirname,
};
module.exports = {
  // longest files first, also where Jest has no record of their times (test/sequencer.js)
  testSequencer: '<rootDir>/test/sequencer.js',
  // the management API's OpenAPI document and its response validators, built once per run for
  // every file that checks responses against them (test/support/openapi-artifacts.ts)
  globalSetup: '<rootDir>/test/openapi-setup.ts',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,services}/*/src/**/*.test.ts', '<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts', '<rootDir>/libs/*/conformance/**/*.test.ts'],
      slowTestThreshold: 30,
      setupFilesAfterEnv: ['<rootDir>/test/support/timeout-integration.ts'],
    },
    // The e2e tier includes the chaos suite at its CI length (8,000 events, its default);
    // scripts/test.sh runs its stream (chaos.test.ts) and the cluster files alone after the other files. `npm run
    // test:chaos` runs the suite by itself, by default at full length (100,000 events). Each worker shares one stack and
    // one browser between its files; the global hooks make the run's record of them and stop
    // them at the end (test/e2e/worker-stacks.ts).
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      slowTestThreshold: 60,
      setupFilesAfterEnv: ['<rootDir>/test/support/timeout-e2e.ts'],
      globalSetup: '<rootDir>/test/e2e/worker-setup.ts',
      globalTeardown: '<rootDir>/test/e2e/worker-teardown.ts',
    },
    // every bench in its short mode: `npm run bench:smoke`, after `npm test` in CI
    {
      ...shared,
      displayName: 'bench',
      testMatch: ['<rootDir>/test/bench/**/*.test.ts'],
      slowTestThreshold: 120,
      setupFilesAfterEnv: ['<rootDir>/test/support/timeout-e2e.ts'],
    },
  ],
};
