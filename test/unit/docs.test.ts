import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/env';
import { workflowTable } from '../../scripts/workflow-table';
import { SETTING_NAMES } from '../../src/core/config';
import { voiceEngineFields } from '../../src/voice/engines/config';

const pages = (dir: string): string[] =>
  readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? pages(path.posix.join(dir, e.name)) : e.name.endsWith('.md') ? [path.posix.join(dir, e.name)] : [],
  );
const docs = ['README.md', ...pages('docs')];
/** Folders .gitignore names: what a run or a script writes there (certificates, builds) is not in the repository. */
const generated = readFileSync(path.join(repoRoot, '.gitignore'), 'utf8')
  .split('\n')
  .filter((l) => l.endsWith('/') && !l.startsWith('#'))
  .map((l) => l.replace(/^\//, ''));
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
/** Prose only: fenced blocks hold commands and output, not references. */
const prose = (text: string) => text.replace(/```[\s\S]*?```/g, '');

/** Relative link targets of a page, anchors dropped. */
const links = (text: string) => [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t) && !t.startsWith('#'));

/**
 * Repository paths a page names in backticks: a word with a slash and a file ending, or a known top folder. Paths of
 * what a run creates (`.data/`, `dist/`, caches), placeholders (`<…>`, `NNN`, `*`) and URLs are not the repository's.
 */
function namedPaths(text: string): string[] {
  const out = new Set<string>();
  for (const [, code] of prose(text).matchAll(/`([^`\s]+)`/g)) {
    const p = code!.replace(/[:,.;)]+$/, '').replace(/#.*$/, '');
    if (!/^(src|test|bench|workflows|activities|worker|scripts|deploy|public|docs|bin)\//.test(p)) continue;
    if (/[<>*{}]|NNN|\.\.\./.test(p) || generated.some((g) => `${p}/`.startsWith(g))) continue;
    out.add(p.replace(/\/$/, ''));
  }
  return [...out];
}

describe('docs', () => {
  it('finds the pages, and the README is one screen', () => {
    expect(docs.length).toBeGreaterThan(8);
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(120);
  });

  it.each(docs)('every relative link of %s resolves', (file) => {
    const missing = links(read(file)).filter((t) => !existsSync(path.join(repoRoot, path.dirname(file), decodeURIComponent(t.split('#')[0]!))));
    expect(missing).toEqual([]);
  });

  it.each(docs)('every repository path %s names exists', (file) => {
    const missing = namedPaths(read(file)).filter((p) => !existsSync(path.join(repoRoot, p)) && !existsSync(path.join(repoRoot, `${p}.ts`)));
    expect(missing).toEqual([]);
  });

  it('the checks can fail: a made-up link and path are reported', () => {
    expect(links('see [x](nowhere.md) and [y](https://example.com)')).toEqual(['nowhere.md']);
    expect(namedPaths('in `src/nowhere/file.ts` and `.data/x` and `src/<domain>/http/`')).toEqual(['src/nowhere/file.ts']);
  });

  it('architecture.md holds the current workflow-type table (scripts/workflow-table.ts prints it)', () => {
    expect(read('docs/architecture.md')).toContain(workflowTable());
  });

  it('no page points outside the repository, and none carries a date outside docs/decisions and bench/results', () => {
    for (const file of docs) {
      expect([file, /\.\.\/shared\//.test(read(file))]).toEqual([file, false]);
      if (!file.startsWith('docs/decisions/')) expect([file, prose(read(file)).match(/\b20\d\d-[01]\d-[0-3]\d\b/g) ?? []]).toEqual([file, []]);
    }
  });

  it('configuration.md or voice-engines.md documents every setting the code declares', () => {
    const documented = read('docs/configuration.md') + read('docs/voice-engines.md');
    const lines = documented.split('\n');
    // A row may name siblings in short (`LOGIN_RATE_LIMIT_PER_ADDRESS` / `_PER_EMAIL`), and per-queue settings once
    // (`WORKER_<QUEUE>_MAX_CACHED_WORKFLOWS`).
    const perQueue = (name: string) => name.replace(/^WORKER_(JOURNEYS|CALLS|AUTOMATIONS|CHAT)_/, 'WORKER_<QUEUE>_');
    const named = (name: string): boolean =>
      documented.includes(`\`${perQueue(name)}\``) ||
      perQueue(name)
        .split('_')
        .some((_, i, parts) => i > 0 && lines.some((l) => l.includes(`\`${parts.slice(0, i).join('_')}_`) && l.includes(`\`_${parts.slice(i).join('_')}\``)));
    const settings = [...SETTING_NAMES, ...Object.keys(voiceEngineFields.shape)];
    expect(settings.length).toBeGreaterThan(80);
    expect(settings.filter((name) => !named(name))).toEqual([]);
    expect(named('NO_SUCH_SETTING')).toBe(false);
  });
});
