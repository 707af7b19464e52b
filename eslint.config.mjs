// Lint: typescript-eslint's recommended rules, workflow determinism (workflows/ may not import I/O), and layers:
// SQL only in src/db (no pg elsewhere in src), and domain code and the CLI do not reach into src/http.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ioModules = ['pg', 'pg-*', 'koa', 'koa-*', '@koa/*', 'undici', 'ws', 'pino', '**/src/db/**', '**/src/db', '**/src/devstack/**'];
const nodeBuiltins = [
  'assert', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises', 'http', 'http2',
  'https', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream', 'timers', 'tls', 'url', 'util', 'v8', 'vm',
  'worker_threads', 'zlib',
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.data/', '.cache/', 'coverage/', 'bin/', '*.config.js', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-namespace': 'off',
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', process: 'readonly', __dirname: 'readonly', console: 'readonly' },
    },
  },
  {
    // The chat widget runs in visitors' browsers as a classic script (served by GET /webchat/widget.js).
    files: ['public/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must be deterministic: do I/O in an activity.' })),
          patterns: [
            { group: ['node:*'], message: 'Workflow code must be deterministic: no Node built-ins.' },
            { group: ioModules, message: 'Workflow code must be deterministic: pg, koa and src/db belong to activities.' },
            { group: ['**/activities', '**/activities/**'], allowTypeImports: true, message: 'Workflows import activity types only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'activities/**/*.ts', 'worker/**/*.ts'],
    ignores: ['src/db/**', 'src/devstack/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['pg', 'pg-*'], message: 'SQL lives in src/db: add a repository function there.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'src/leads/**/*.ts', 'src/journeys/**/*.ts', 'src/automation/**/*.ts', 'src/calls/*.ts', 'src/calls/db/**/*.ts', 'activities/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['pg', 'pg-*'], message: 'SQL lives in src/db: add a repository function there.' },
            { group: ['**/http', '**/http/**'], message: 'Only src/http knows HTTP: share rules through src/leads or src/journeys.' },
          ],
        },
      ],
    },
  },
);
