import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './env';

/** A test file's statement that it runs some actions of an integration; `null` stands for the default action. */
export interface CoverageDeclaration {
  file: string;
  integration: string;
  actions: Array<string | null>;
  /** The file's text, for further checks (which vendor description it validates against). */
  text: string;
  /**
   * True for actionHarness/declareCoverage; false when read off a call (`runIntegrationAction({integration, action`, an
   * endpoint body, or `run('<action>'` in `<key>.test.ts`), which may be a deliberate unknown-action test.
   */
  explicit: boolean;
}

/** `actionHarness('key', ['a', 'b'], …)` (integration-harness.ts) or `declareCoverage('key', ['a'])`: the explicit declarations. */
const DECLARATION = /\b(?:actionHarness|declareCoverage)\(\s*'([a-z0-9_]+)',\s*\[([^\]]*)\]/g;
/** `runIntegrationAction({ integration: 'key', action: 'a'` (the action may be omitted: the default one runs). */
const DIRECT_RUN = /runIntegrationAction\(\{\s*integration:\s*'([a-z0-9_]+)'(?:,\s*action:\s*'([a-z0-9_]+)')?/g;
/** An endpoint request body: `automationType: 'key'` then, close by, `action: 'a'`. */
const ENDPOINT_RUN = /automationType:\s*'([a-z0-9_]+)'[^;]{0,300}?\baction:\s*'([a-z0-9_]+)'/g;
/** In `<key>.test.ts` (dashes for underscores), a local runner called with a literal action: `run('a'`. */
const NAMED_FILE_RUN = /\brun\(\s*'([a-z0-9_]+)'/g;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every statement of coverage in the test files under test/ (read statically, so a file is never run to find them). */
export function coverageDeclarations(): CoverageDeclaration[] {
  return testFiles(path.join(repoRoot, 'test')).flatMap((full) => {
    const text = readFileSync(full, 'utf8');
    const file = path.relative(repoRoot, full);
    const named = [...text.matchAll(NAMED_FILE_RUN)].map((m) => m[1]!);
    const byName = path.basename(full, '.test.ts').replace(/-/g, '_');
    return [
      ...[...text.matchAll(DECLARATION)].map((m) => ({ file, integration: m[1]!, actions: [...m[2]!.matchAll(/'([a-z0-9_]+)'/g)].map((a) => a[1]!), text, explicit: true })),
      ...[...text.matchAll(DIRECT_RUN)].map((m) => ({ file, integration: m[1]!, actions: [m[2] ?? null], text, explicit: false })),
      ...[...text.matchAll(ENDPOINT_RUN)].map((m) => ({ file, integration: m[1]!, actions: [m[2]!], text, explicit: false })),
      ...(named.length > 0 ? [{ file, integration: byName, actions: named, text, explicit: false }] : []),
    ];
  });
}
