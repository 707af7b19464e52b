import { fixtureFiles, historyOf, loadFixture, replayHistory, replayWithActivityRenamed } from '../helpers/replay-fixtures';

// Histories of real campaignRun and deliverCampaignEvent runs (scripts/record-campaign-fixtures.ts). Every one must keep
// replaying with the current workflow code: a change that breaks one needs patched() and a new recording (--tag).
const files = fixtureFiles('campaign');
const typeOf = (file: string) => historyOf(loadFixture(file)).events![0]!.workflowExecutionStartedEventAttributes!.workflowType!.name;

describe('campaign workflows replay', () => {
  it('has a fixture for every recorded path, of both campaign workflow types', () => {
    // The patches of campaignRun are deprecated (docs/workflow-versioning.md): the histories recorded before any of them
    // are gone. completed-v3: recorded after campaign-done-none-left-out, the last of them, with the patches live
    // (patched() markers, as the runs of the release before carry them); the v2 of canceled, continued and paced once
    // the patches were deprecated. deliverCampaignEvent has no patch.
    expect(files).toEqual(
      [
        'campaign-history-canceled-v2.json',
        'campaign-history-completed-v3.json',
        'campaign-history-continued-v2.json',
        'campaign-history-event-delivered.json',
        'campaign-history-paced-v2.json',
      ].sort(),
    );
    expect(new Set(files.map(typeOf))).toEqual(new Set(['campaignRun', 'deliverCampaignEvent']));
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    await expect(replayHistory(loadFixture(file))).resolves.toBeUndefined();
  });

  it('the completed path calls through outboundCall children (the do-not-call lead refused by one, a retry among them) and the continued one continues as new', () => {
    const completed = historyOf(loadFixture('campaign-history-completed-v3.json')).events!;
    const children = completed.flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name ?? []);
    expect(children.filter((n) => n === 'outboundCall')).toHaveLength(5);
    const continued = historyOf(loadFixture('campaign-history-continued-v2.json')).events!;
    expect(continued.at(-1)!.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    await expect(replayWithActivityRenamed('campaign-history-completed-v3.json', 'campaignDueLeads', 'campaignNextLeads')).rejects.toThrow(/[Nn]ondetermin/);
    await expect(replayWithActivityRenamed('campaign-history-event-delivered.json', 'publishCampaignEvent', 'openCampaign')).rejects.toThrow(/[Nn]ondetermin/);
  });
});
