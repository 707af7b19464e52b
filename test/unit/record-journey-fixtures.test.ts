import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../helpers/env';
import { fixtureDigest as digest } from '../helpers/fixture-digest';

const record = (...args: string[]) =>
  spawnSync(process.execPath, [path.join('bin', 'run-ts.js'), path.join('scripts', 'record-journey-fixtures.ts'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
  });

describe('scripts/record-journey-fixtures.ts', () => {
  it('refuses to overwrite a recorded history, before it starts anything', () => {
    const before = digest();
    const run = record('--tag', 'v6', '--only', 'window-wait,resumed');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('refusing to overwrite test/fixtures/journey-history-window-wait-v6.json, test/fixtures/journey-history-resumed-v6.json');
    expect(run.stderr).toContain('--tag');
    expect(digest()).toEqual(before);
  });

  it('names the paths it knows when asked for another', () => {
    const run = record('--only', 'no-such-path');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/unknown path\(s\) no-such-path; known: post-patch, enroll-signal, .*window-wait/);
  });
});
