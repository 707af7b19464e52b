import { automationPaths } from '../../scripts/automation-fixture-paths';
import { fixtureFiles, historyOf, loadFixture, replayHistory, replayWithActivityRenamed } from '../helpers/replay-fixtures';

// Histories of real automationRun runs, one per path (scripts/record-automation-fixtures.ts). Every one must keep
// replaying with the current workflow code: a change that breaks one needs patched() and a new recording (--tag).
const recorded = ['success', 'action-failure', 'retried-then-succeeded', 'async-callback'];
// Recorded again (--tag v2) once the run told its activity whether it runs in the first workflow task (the
// automation-first-task patch): both generations keep replaying.
const recordedAgain = recorded.map((p) => `${p}-v2`);
const files = fixtureFiles('automation');

describe('automationRun replay', () => {
  it('has a fixture for every recorded path', () => {
    expect(files).toEqual(expect.arrayContaining([...recorded, ...recordedAgain].map((p) => `automation-history-${p}.json`)));
  });

  it('records every path the recorder knows', () => {
    expect(Object.keys(automationPaths)).toEqual(recorded);
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    const f = loadFixture(file);
    const h = historyOf(f);
    expect(h.events!.find((e) => e.workflowExecutionStartedEventAttributes)?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('automationRun');
    expect(h.events!.some((e) => e.markerRecordedEventAttributes)).toBe(true);
    await expect(replayHistory(f, h)).resolves.toBeUndefined();
  });

  it('has the automation-first-task patch marker in the v2 histories only', () => {
    const patchedIn = (file: string) =>
      JSON.stringify(loadFixture(file).history).includes(Buffer.from('"automation-first-task"').toString('base64').replace(/=+$/, ''));
    for (const p of recorded) {
      expect(patchedIn(`automation-history-${p}.json`)).toBe(false);
      expect(patchedIn(`automation-history-${p}-v2.json`)).toBe(true);
    }
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    await expect(replayWithActivityRenamed('automation-history-async-callback.json', 'deliverAutomationCallback', 'journeyWebhook')).rejects.toThrow(
      /[Nn]ondetermin/,
    );
  });
});
