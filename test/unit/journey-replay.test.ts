import { journeyPaths } from '../../scripts/journey-fixture-paths';
import { fixtureFiles, historyOf, loadFixture, replayHistory, replayWithActivityRenamed } from '../helpers/replay-fixtures';

// Histories of real runs, one per path (scripts/record-journey-fixtures.ts; journey-history.json predates the Outcome
// patch). Every one must keep replaying with the current workflow code: a change that breaks one needs patched().
// The paths recorded so far ('' predates the recorder); the first seven were recorded again (--tag v2) once the
// enroll and unenroll updates and the journey-final-row patch came, so both their histories keep replaying.
const recordedAgain = ['-post-patch', '-enroll-signal', '-unenroll-mid-wait', '-start-over', '-continue-as-new', '-resumed', '-window-wait'];
const recorded = [
  '',
  ...recordedAgain,
  '-enroll-update-start-over',
  '-unenroll-update',
  '-failed-run',
  '-duplicate-enroll-rejected',
  '-call-no-answer',
  '-trigger-hooks',
  '-trigger-delivered',
];
// Recorded a third time (--tag v3) once the call step ran calls (the journey-call-step patch): its call step now
// looks up the agent, where the older histories skipped it.
const recordedThird = ['-post-patch'];
// Recorded again (--tag local) once the journey's database steps ran as local activities (the journey-local-data patch).
const recordedLocal = ['-post-patch', '-failed-run'];
// Recorded again (--tag attrs) once children got their full search attributes (the run-search-attributes patch): the
// automation child (post-patch), the call child (call-no-answer) and the trigger delivery (trigger-hooks).
const recordedAttrs = ['-post-patch', '-trigger-hooks', '-call-no-answer'];
// Recorded again (--tag inline) once the automation step ran inline rather than as a child (journey-automation-inline).
const recordedInline = ['-post-patch'];
const files = fixtureFiles('journey');

describe('journeyEnrollment replay', () => {
  it('has a fixture for every recorded path', () => {
    const all = [
      ...recorded,
      ...recordedAgain.map((p) => `${p}-v2`),
      ...recordedThird.map((p) => `${p}-v3`),
      ...recordedLocal.map((p) => `${p}-local`),
      ...recordedAttrs.map((p) => `${p}-attrs`),
      ...recordedInline.map((p) => `${p}-inline`),
    ];
    expect(files).toEqual(expect.arrayContaining(all.map((s) => `journey-history${s}.json`)));
  });

  it('records every path the recorder knows', () => {
    expect(Object.keys(journeyPaths).map((p) => `-${p}`)).toEqual(recorded.slice(1));
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    const f = loadFixture(file);
    const h = historyOf(f);
    expect(h.events!.length).toBeGreaterThan(10);
    await expect(replayHistory(f, h)).resolves.toBeUndefined();
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    await expect(replayWithActivityRenamed('journey-history.json', 'journeyTag', 'journeyWebhook')).rejects.toThrow(/[Nn]ondetermin/);
  });
});
