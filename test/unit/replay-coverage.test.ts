import { readdirSync } from 'node:fs';
import path from 'node:path';
import * as workflows from '../../workflows';
import { repoRoot } from '../helpers/env';
import { historyOf, loadFixture } from '../helpers/replay-fixtures';

// Every workflow type the worker registers (every export of workflows/index.ts) has at least one recorded history in
// test/fixtures that a *-replay test replays: a new type without a recorder and a fixture fails here.
const files = readdirSync(path.join(repoRoot, 'test', 'fixtures')).filter((f) => /-history.*\.json$/.test(f));
const typeOf = (file: string) => historyOf(loadFixture(file)).events![0]!.workflowExecutionStartedEventAttributes!.workflowType!.name!;

describe('replay fixtures', () => {
  it('cover every workflow type the worker registers', () => {
    const recorded = new Set(files.map(typeOf));
    expect(Object.keys(workflows).filter((type) => !recorded.has(type))).toEqual([]);
  });

  it('are each replayed by a test of their kind', () => {
    const tests = readdirSync(path.join(repoRoot, 'test', 'unit')).filter((f) => f.endsWith('-replay.test.ts'));
    const kinds = new Set(files.map((f) => f.slice(0, f.indexOf('-history'))));
    expect([...kinds].filter((kind) => !tests.includes(`${kind}-replay.test.ts`))).toEqual([]);
  });
});
