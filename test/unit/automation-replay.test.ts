import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { automationPaths } from '../../scripts/automation-fixture-paths';
import { repoRoot, testEnv } from '../helpers/env';

interface Fixture {
  workflowId: string;
  history: Record<string, unknown>;
}

// Histories of real automationRun runs, one per path (scripts/record-automation-fixtures.ts). Every one must keep
// replaying with the current workflow code: a change that breaks one needs patched() and a new recording (--tag).
const fixtures = path.join(repoRoot, 'test', 'fixtures');
const recorded = ['success', 'action-failure', 'retried-then-succeeded', 'async-callback'];
// Recorded again (--tag v2) once the run told its activity whether it runs in the first workflow task (the
// automation-first-task patch): both generations keep replaying.
const recordedAgain = recorded.map((p) => `${p}-v2`);
const files = readdirSync(fixtures).filter((f) => /^automation-history-.*\.json$/.test(f)).sort();
const load = (file: string) => JSON.parse(readFileSync(path.join(fixtures, file), 'utf8')) as Fixture;
const history = (f: Fixture) => temporal.api.history.v1.History.fromObject(f.history);
const replay = (f: Fixture, h: temporal.api.history.v1.IHistory) =>
  Worker.runReplayHistory({ workflowBundle: { codePath: testEnv('bundlePath') } }, h, f.workflowId);

beforeAll(() => {
  if (!Runtime._instance) Runtime.install({ logger: new DefaultLogger('ERROR') });
});

describe('automationRun replay', () => {
  it('has a fixture for every recorded path', () => {
    expect(files).toEqual(expect.arrayContaining([...recorded, ...recordedAgain].map((p) => `automation-history-${p}.json`)));
  });

  it('records every path the recorder knows', () => {
    expect(Object.keys(automationPaths)).toEqual(recorded);
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    const f = load(file);
    const h = history(f);
    expect(h.events!.find((e) => e.workflowExecutionStartedEventAttributes)?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('automationRun');
    expect(h.events!.some((e) => e.markerRecordedEventAttributes)).toBe(true);
    await expect(replay(f, h)).resolves.toBeUndefined();
  });

  it('has the automation-first-task patch marker in the v2 histories only', () => {
    const patchedIn = (file: string) => JSON.stringify(load(file).history).includes(Buffer.from('"automation-first-task"').toString('base64').replace(/=+$/, ''));
    for (const p of recorded) {
      expect(patchedIn(`automation-history-${p}.json`)).toBe(false);
      expect(patchedIn(`automation-history-${p}-v2.json`)).toBe(true);
    }
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    const f = load('automation-history-async-callback.json');
    const h = history(f);
    const scheduled = h.events!.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverAutomationCallback')!;
    scheduled.activityTaskScheduledEventAttributes!.activityType!.name = 'journeyWebhook';
    await expect(replay(f, h)).rejects.toThrow(/[Nn]ondetermin/);
  });
});
