// Lint for what the compiler does not catch: promises nobody awaits or handles (a lost
// publish confirm is a lost event), and imports that exist only for types.
const tseslint = require('typescript-eslint');

/** The same rules for a set of files type-checked by `project`. */
const typedRules = (files, project, voidReturn) => ({
  files,
  languageOptions: {
    parser: tseslint.parser,
    parserOptions: { project, tsconfigRootDir: __dirname },
  },
  linterOptions: { reportUnusedDisableDirectives: 'off' },
  plugins: { '@typescript-eslint': tseslint.plugin },
  rules: {
    '@typescript-eslint/no-floating-promises': 'error',
    '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: voidReturn }],
    '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
  },
});

module.exports = tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.infra/**', 'coverage/**', '*.js', 'deploy/**'] },
  typedRules(
    ['libs/*/src/**/*.ts', 'libs/*/conformance/**/*.ts', 'services/*/src/**/*.ts', 'test/**/*.ts'],
    './tsconfig.test.json',
    { arguments: false },
  ),
  // the benches and scripts (CommonJS, type-checked through JSDoc by tsconfig.scripts.json): the same promise rules
  {
    files: ['bench/**/*.js', 'scripts/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      parser: tseslint.parser,
      parserOptions: { project: './tsconfig.scripts.json', tsconfigRootDir: __dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  // route code, the gateway and the deliverer's delivery path ask @relay/store in the domain's words (STYLE.md). The
  // store's models are not on its public type any more, so the compiler refuses `store.targets`; what is left to
  // refuse is reaching past the store through its connection (a model or a raw collection of the store's own)
  {
    files: [
      'services/*/src/transport/**/*.ts',
      'services/ingest-gateway/src/**/*.ts',
      'services/deliverer/src/delivery/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[object.property.name='connection'][property.name=/^(model|models|collection|db)$/]",
          message:
            'Route code does not query the store through its connection: use (or add) a function of @relay/store or an adapter.',
        },
      ],
    },
  },
  // the dashboard (browser code, its own tsconfig): JSX event handlers may return promises
  typedRules(
    ['services/management-api/dashboard/src/**/*.{ts,tsx}'],
    './services/management-api/dashboard/tsconfig.json',
    { arguments: false, attributes: false },
  ),
);
