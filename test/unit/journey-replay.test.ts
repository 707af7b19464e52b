import { journeyPaths } from '../../scripts/journey-fixture-paths';
import { fixtureFiles, historyOf, loadFixture, replayHistory, replayWithActivityRenamed } from '../helpers/replay-fixtures';

// Histories of real runs, one per path (scripts/record-journey-fixtures.ts). Every one must keep replaying with the
// current workflow code: a change that breaks one needs patched() (docs/workflow-versioning.md). The patches of
// journeyEnrollment are deprecated, so the histories recorded before any of them are gone; each path keeps its newest
// recording: those tagged local, inline and attrs were recorded with the patches live (patched() markers, as the runs
// of the release before carry them), those tagged v6 once the patches were deprecated (deprecated markers).
const fixtureOf: Record<string, string> = {
  'post-patch': 'post-patch-inline',
  'enroll-signal': 'enroll-signal-v6',
  'unenroll-mid-wait': 'unenroll-mid-wait-v6',
  'start-over': 'start-over-v6',
  'continue-as-new': 'continue-as-new-v6',
  resumed: 'resumed-v6',
  'window-wait': 'window-wait-v6',
  'enroll-update-start-over': 'enroll-update-start-over-v6',
  'unenroll-update': 'unenroll-update-v6',
  'failed-run': 'failed-run-local',
  'duplicate-enroll-rejected': 'duplicate-enroll-rejected-v6',
  'call-no-answer': 'call-no-answer-attrs',
  'trigger-hooks': 'trigger-hooks-attrs',
  // deliverJourneyTrigger has no patch.
  'trigger-delivered': 'trigger-delivered',
};
const files = fixtureFiles('journey');

describe('journeyEnrollment replay', () => {
  it('has a fixture for every path the recorder knows, and no other', () => {
    expect(Object.keys(fixtureOf)).toEqual(Object.keys(journeyPaths));
    expect(files).toEqual(
      Object.values(fixtureOf)
        .map((s) => `journey-history-${s}.json`)
        .sort(),
    );
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    const f = loadFixture(file);
    const h = historyOf(f);
    expect(h.events!.length).toBeGreaterThan(10);
    await expect(replayHistory(f, h)).resolves.toBeUndefined();
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    await expect(replayWithActivityRenamed('journey-history-post-patch-inline.json', 'journeyTag', 'journeyWebhook')).rejects.toThrow(/[Nn]ondetermin/);
  });
});
