import { fixtureFiles, historyOf, loadFixture, replayHistory, replayWithActivityRenamed } from '../helpers/replay-fixtures';

// Histories of real campaignRun runs (scripts/record-campaign-fixtures.ts). Every one must keep replaying with the
// current workflow code: a change that breaks one needs patched() and a new recording (--tag).
const files = fixtureFiles('campaign');

describe('campaignRun replay', () => {
  it('has a fixture for every recorded path', () => {
    expect(files).toEqual(expect.arrayContaining(['campaign-history-completed.json', 'campaign-history-continued.json', 'campaign-history-canceled.json']));
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    const f = loadFixture(file);
    const h = historyOf(f);
    expect(h.events!.find((e) => e.workflowExecutionStartedEventAttributes)?.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('campaignRun');
    await expect(replayHistory(f, h)).resolves.toBeUndefined();
  });

  it('the completed path calls through outboundCall children (the do-not-call lead refused by one, a retry among them) and the continued one continues as new', () => {
    const completed = historyOf(loadFixture('campaign-history-completed.json')).events!;
    const children = completed.flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name ?? []);
    expect(children.filter((n) => n === 'outboundCall')).toHaveLength(5);
    const continued = historyOf(loadFixture('campaign-history-continued.json')).events!;
    expect(continued.at(-1)!.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    await expect(replayWithActivityRenamed('campaign-history-completed.json', 'campaignDueLeads', 'campaignNextLeads')).rejects.toThrow(/[Nn]ondetermin/);
  });
});
