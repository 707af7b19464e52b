import { fixtureFiles, historyOf, loadFixture, replayHistory, replayWithActivityRenamed } from '../helpers/replay-fixtures';

// Histories of real leadImport runs (scripts/record-lead-import-fixtures.ts). Every one must keep replaying with the
// current workflow code: a change that breaks one needs patched() and a new recording (--tag).
const files = fixtureFiles('lead-import');

describe('leadImport replay', () => {
  it('has a fixture for every recorded path', () => {
    expect(files).toEqual(expect.arrayContaining(['lead-import-history-completed.json']));
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    const f = loadFixture(file);
    const h = historyOf(f);
    expect(h.events!.find((e) => e.workflowExecutionStartedEventAttributes)?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('leadImport');
    expect(h.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'importLeadChunk')).toHaveLength(3);
    await expect(replayHistory(f, h)).resolves.toBeUndefined();
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    await expect(replayWithActivityRenamed('lead-import-history-completed.json', 'importLeadChunk', 'failLeadImport')).rejects.toThrow(/[Nn]ondetermin/);
  });
});
