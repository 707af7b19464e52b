import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { listIntegrations } from '../../src/integrations/registry';
import { repoRoot } from '../helpers/env';
import { vendorSpecPath } from '../helpers/vendor-spec';

/** Every test file under test/, with its text. */
function testFiles(dir = path.join(repoRoot, 'test')): Array<{ file: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'helpers' ? [] : testFiles(full);
    return e.name.endsWith('.test.ts') ? [{ file: path.relative(repoRoot, full), text: readFileSync(full, 'utf8') }] : [];
  });
}

const files = testFiles().filter((f) => f.file !== path.join('test', 'integrations', 'catalogue-coverage.test.ts'));

/** The test files that run an integration's actions (through the runner or the endpoint). */
function filesFor(key: string): Array<{ file: string; text: string }> {
  const runs = new RegExp(`(integration|automationType)\\s*:\\s*'${key}'`);
  return files.filter((f) => runs.test(f.text));
}

describe('the catalogue is covered by request tests', () => {
  const integrations = listIntegrations();

  it.each(integrations.map((i) => [i.key, i] as const))('%s: every action is run by a test', (key, integration) => {
    const own = filesFor(key);
    expect(own.map((f) => f.file)).not.toEqual([]);
    const untested = integration.actions.map((a) => a.key).filter((action) => !own.some((f) => f.text.includes(`'${action}'`)) && !(integration.actions.length === 1 && own.length));
    expect(untested).toEqual([]);
  });

  it('every integration with a vendor description in ../shared/vendor-apis/ has a test that reads it', () => {
    const dir = path.dirname(vendorSpecPath('INDEX.md'));
    const described = readdirSync(dir).filter((f) => f.endsWith('.json'));
    const keys = new Set(integrations.map((i) => i.key));
    const unchecked = described
      .map((file) => ({ file, key: path.basename(file, '.json').replace(/-/g, '_') }))
      .filter(({ key }) => keys.has(key))
      .filter(({ file, key }) => !filesFor(key).some((f) => f.text.includes(`'${file}'`)));
    expect(unchecked).toEqual([]);
    // The mapping by file name must keep finding the described integrations (not silently match none).
    expect(described.map((f) => path.basename(f, '.json').replace(/-/g, '_')).filter((k) => keys.has(k))).toEqual(expect.arrayContaining(['slack', 'twilio', 'stripe', 'whatsapp']));
  });
});
