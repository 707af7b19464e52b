import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/env';

const fixtures = path.join(repoRoot, 'test', 'fixtures');
const digest = () =>
  Object.fromEntries(
    readdirSync(fixtures)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [
        f,
        createHash('sha256')
          .update(readFileSync(path.join(fixtures, f)))
          .digest('hex'),
      ]),
  );
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
