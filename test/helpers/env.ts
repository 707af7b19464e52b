import path from 'node:path';

/** Where the test stack lives; global setup writes these, test files read them. */
export const TEST_ENV = {
  databaseUrl: 'SWITCHBOARD_TEST_DATABASE_URL',
  temporalAddress: 'SWITCHBOARD_TEST_TEMPORAL_ADDRESS',
  bundlePath: 'SWITCHBOARD_TEST_BUNDLE',
} as const;

export const repoRoot = path.resolve(__dirname, '..', '..');

export function testEnv(name: keyof typeof TEST_ENV): string {
  const value = process.env[TEST_ENV[name]];
  if (!value) throw new Error(`${TEST_ENV[name]} is not set: run the tests through jest (global setup provides the stack)`);
  return value;
}
