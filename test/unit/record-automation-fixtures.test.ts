import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../helpers/env';
import { fixtureDigest as digest } from '../helpers/fixture-digest';

const record = (...args: string[]) =>
  spawnSync(process.execPath, [path.join('bin', 'run-ts.js'), path.join('scripts', 'record-automation-fixtures.ts'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
  });

describe('scripts/record-automation-fixtures.ts', () => {
  it('refuses to overwrite a recorded history, before it starts anything', () => {
    const before = digest();
    const run = record('--tag', 'v2', '--only', 'success,async-callback');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'refusing to overwrite test/fixtures/automation-history-success-v2.json, test/fixtures/automation-history-async-callback-v2.json',
    );
    expect(run.stderr).toContain('--tag');
    expect(digest()).toEqual(before);
  });

  it('names the paths it knows when asked for another', () => {
    const run = record('--only', 'no-such-path');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/unknown path\(s\) no-such-path; known: success, action-failure, retried-then-succeeded, async-callback/);
  });
});
