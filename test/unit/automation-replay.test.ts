import { automationPaths } from '../../scripts/automation-fixture-paths';
import { fixtureFiles, historyOf, loadFixture, replayHistory, replayWithActivityRenamed } from '../helpers/replay-fixtures';

// Histories of real automationRun runs, one per path (scripts/record-automation-fixtures.ts). Every one must keep
// replaying with the current workflow code: a change that breaks one needs patched() and a new recording (--tag).
// Recorded (--tag v2) once the run told its activity whether it runs in the first workflow task (the
// automation-first-task patch, now deprecated: the histories from before it are gone, docs/workflow-versioning.md).
const recorded = ['success', 'action-failure', 'retried-then-succeeded', 'async-callback'];
const files = fixtureFiles('automation');

describe('automationRun replay', () => {
  it('has a fixture for every path the recorder knows, and no other', () => {
    expect(Object.keys(automationPaths)).toEqual(recorded);
    expect(files).toEqual(recorded.map((p) => `automation-history-${p}-v2.json`).sort());
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    const f = loadFixture(file);
    const h = historyOf(f);
    expect(h.events!.find((e) => e.workflowExecutionStartedEventAttributes)?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('automationRun');
    expect(h.events!.some((e) => e.markerRecordedEventAttributes)).toBe(true);
    await expect(replayHistory(f, h)).resolves.toBeUndefined();
  });

  it.each(files)('%s carries the automation-first-task patch marker', (file) => {
    expect(JSON.stringify(loadFixture(file).history)).toContain(Buffer.from('"automation-first-task"').toString('base64').replace(/=+$/, ''));
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    await expect(replayWithActivityRenamed('automation-history-async-callback-v2.json', 'deliverAutomationCallback', 'journeyWebhook')).rejects.toThrow(
      /[Nn]ondetermin/,
    );
  });
});
