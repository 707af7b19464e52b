/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  setupFiles: ['<rootDir>/test/helpers/sdk-runtime.ts'],
  testTimeout: 120_000,
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
};
