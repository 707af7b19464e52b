import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../helpers/env';
import { fixtureDigest as digest } from '../helpers/fixture-digest';

const record = (...args: string[]) =>
  spawnSync(process.execPath, [path.join('bin', 'run-ts.js'), path.join('scripts', 'record-chat-fixtures.ts'), ...args], { cwd: repoRoot, encoding: 'utf8' });

describe('scripts/record-chat-fixtures.ts', () => {
  it('refuses to overwrite a recorded history, before it starts anything', () => {
    const before = digest();
    const run = record('--tag', 'v3', '--only', 'idle,resumed');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('refusing to overwrite test/fixtures/chat-history-idle-v3.json, test/fixtures/chat-history-resumed-v3.json');
    expect(run.stderr).toContain('--tag');
    expect(digest()).toEqual(before);
  });

  it('names the paths it knows when asked for another', () => {
    const run = record('--only', 'no-such-path');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /unknown path\(s\) no-such-path; known: conversation, automation, model-activities, idle, resumed, paused-writes, continue-as-new/,
    );
  });
});
