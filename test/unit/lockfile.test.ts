import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../helpers/env';

const check = (file?: string) => {
  try {
    return {
      code: 0,
      out: execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'check-lockfile.js'), ...(file ? [file] : [])], { encoding: 'utf8', stdio: 'pipe' }),
    };
  } catch (err) {
    const e = err as { status: number; stderr: string };
    return { code: e.status, out: e.stderr };
  }
};

describe('package-lock.json', () => {
  it('records every optional dependency of every locked package, for every platform (npm ci works anywhere)', () => {
    expect(check()).toMatchObject({ code: 0 });
  });

  it('the check names a platform binary left out of the lock', () => {
    const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8'));
    delete lock.packages['node_modules/@swc/core-darwin-arm64'];
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sb-lock-')), 'package-lock.json');
    writeFileSync(file, JSON.stringify(lock));
    const res = check(file);
    expect(res.code).toBe(1);
    expect(res.out).toContain('@swc/core-darwin-arm64 (optional dependency of node_modules/@swc/core)');
  });
});
