import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { outcomeTable } from '../../bench/lib';
import { repoRoot } from '../helpers/env';

/** `npm run bench -- <args>` without npm: the same script, exit code and output. */
const bench = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'run-ts.js'), path.join(repoRoot, 'bench', 'run.ts'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('npm run bench', () => {
  it('--list lists every benchmark and all, exits 0 and prints no stack trace', () => {
    const res = bench('--list');
    expect(res.status).toBe(0);
    expect(res.stderr).toBe('');
    const names = res.stdout
      .split('\n')
      .filter((l) => /^\S/.test(l))
      .map((l) => l.split(/\s+/)[0]);
    expect(names).toEqual([
      'automation',
      'calls',
      'campaign',
      'chat',
      'enroll',
      'import',
      'journeys',
      'lead-list',
      'lead-lookup',
      'sleeping',
      'temporal-raw',
      'tracing',
      'all',
    ]);
  });

  it.each([
    [['lead-lookup', '--nope', '3'], /lead-lookup: Unknown option '--nope'/],
    [['lead-lookup', '--leads'], /argument missing/],
    [['no-such-bench'], /no benchmark named "no-such-bench"/],
    [['all', '--rounds', '2'], /all runs each benchmark at its defaults/],
    [[], /name a benchmark/],
  ])('refuses %j with one line and exit code 2, before running anything', (args, message) => {
    const res = bench(...args);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr).not.toMatch(/^\s+at /m);
    expect(res.stdout).toBe('');
  });

  it('ends `all` with one table: name, ratio, goal, met', () => {
    const table = outcomeTable([
      { name: 'enroll', goal: 0.9, ratio: 0.93 },
      { name: 'lead-lookup', goal: 0.9, ratio: 0.8123 },
      { name: 'temporal-raw', ratio: 0.41 },
      { name: 'broken', goal: 0.9, error: 'connection refused' },
    ]);
    expect(
      table
        .trimEnd()
        .split('\n')
        .map((l) => l.trim().split(/\s{2,}/)),
    ).toEqual([
      ['name', 'ratio', 'goal', 'met'],
      ['enroll', '0.930', '>= 0.90', 'yes'],
      ['lead-lookup', '0.812', '>= 0.90', 'no'],
      ['temporal-raw', '0.410', '-', '-'],
      ['broken', 'failed: connection refused', '>= 0.90', 'no'],
    ]);
  });
});
