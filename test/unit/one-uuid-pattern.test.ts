import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/env';

/** Every .ts file under dir (relative paths). */
function tsFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(repoRoot, path.join(e.parentPath, e.name)));
}

describe('one UUID pattern', () => {
  it('only src/core/ids.ts spells out a UUID regular expression (everything else uses isUuid or UUID_PATTERN)', () => {
    // Pieces of a hand-written UUID pattern: 8 hex then a dash, or 36 hex-or-dash characters.
    const copy = new RegExp(['\\[0-9a-f\\]\\{8\\}-', '\\[0-9a-f-\\]\\{36\\}', '\\[0-9a-fA-F\\]\\{8\\}'].join('|'));
    const offenders = ['src', 'activities', 'workflows', 'worker', 'bench', 'test']
      .flatMap(tsFiles)
      .filter((f) => f !== path.join('src', 'core', 'ids.ts') && copy.test(readFileSync(path.join(repoRoot, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
