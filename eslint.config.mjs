// Lint: typescript-eslint's recommended rules, workflow determinism (workflows/ may not import I/O), and layers:
// SQL only in src/db and each domain's db/ folder (no pg elsewhere in src), and no code outside src/http and the
// domains' http/ folders speaks HTTP (koa or an http/ module). test/unit/import-graph.test.ts adds what a
// per-file rule cannot see: import circles, and workflows reaching I/O through chains of imports.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ioModules = [
  'pg',
  'pg-*',
  'koa',
  'koa-*',
  '@koa/*',
  'undici',
  'ws',
  'pino',
  '**/src/db/**',
  '**/src/db',
  '**/src/*/db',
  '**/src/*/db/**',
  '**/src/api',
  '**/src/api/**',
  '**/src/http',
  '**/src/http/**',
  '**/src/*/http',
  '**/src/*/http/**',
  '**/src/devstack/**',
];
// Where SQL may be written, and where HTTP may be spoken.
const dbFolders = ['src/db/**', 'src/*/db/**', 'src/*/*/db/**'];
// src/api is the api's composition root (the app, its route list, main): it assembles HTTP, so it may speak it.
const httpFolders = ['src/api/**', 'src/http/**', 'src/*/http/**', 'src/*/*/http/**'];
// Processes that are HTTP servers themselves (fake vendors, the dev launcher that starts the api), not domain code.
const servers = ['src/devstack/**', 'src/sandbox/**', 'src/telephony/simulator/**', 'src/cli/dev.ts', 'src/cli/dev-services.ts'];
const noSql = { group: ['pg', 'pg-*'], message: "SQL lives in src/db and the domains' db/ folders: add a repository function there." };
const noHttp = {
  group: ['koa', 'koa-*', '@koa/*', '**/http', '**/http/**'],
  message: "Only src/http knows HTTP (and each domain's http/ folder): throw DomainError codes, share rules through the domain's modules.",
};
const nodeBuiltins = [
  'assert',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'readline',
  'stream',
  'timers',
  'tls',
  'url',
  'util',
  'v8',
  'vm',
  'worker_threads',
  'zlib',
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
    ignores: [...dbFolders, 'src/devstack/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noSql] }] },
  },
  {
    // Every domain folder (src/<domain> minus its http/), the CLI, activities and the worker (ApiError lives in src/http).
    files: ['src/**/*.ts', 'activities/**/*.ts', 'worker/**/*.ts'],
    ignores: [...httpFolders, ...dbFolders, ...servers],
    rules: { 'no-restricted-imports': ['error', { patterns: [noSql, noHttp] }] },
  },
  {
    files: dbFolders.filter((f) => f !== 'src/db/**'),
    rules: { 'no-restricted-imports': ['error', { patterns: [noHttp] }] },
  },
);
