import { temporal } from '@temporalio/proto';
import { callPaths } from '../../scripts/call-fixture-paths';
import { fixtureFiles, historyOf, loadFixture, replayHistory, replayWithActivityRenamed } from '../helpers/replay-fixtures';

// Histories of real outboundCall, deliverCallEvent and reclaimUnstartedCalls runs, one per path
// (scripts/record-call-fixtures.ts). Every one must keep replaying with the current workflow code: a change that breaks
// one needs patched().
const recorded = ['transfer', 'two-legs', 'busy', 'no-answer', 'provider-timeout', 'recheck', 'cancel', 'slot-wait', 'reclaim', 'event-delivered'];
// Recorded again (--tag v2) once the call-slot-wakeup patch came: new runs carry its marker, and a call waiting for a
// slot waits in one activity instead of a poll timer per 5 s; the first recordings keep replaying the old way.
const recordedAgain = ['transfer', 'two-legs', 'busy', 'no-answer', 'provider-timeout', 'cancel', 'slot-wait'];
// And again (--tag v3) after the call-provider-truth patch: silence and the recheck signal read the provider.
const recordedThird = recordedAgain;
// After run-search-attributes (the call's event deliveries carry its ids): transfer-attrs.
const recordedAttrs = ['transfer'];
const files = fixtureFiles('call');
const typeOf = (h: temporal.api.history.v1.IHistory) => h.events![0]!.workflowExecutionStartedEventAttributes!.workflowType!.name;

describe('call workflows replay', () => {
  it('has a fixture for every recorded path', () => {
    const all = [...recorded, ...recordedAgain.map((p) => `${p}-v2`), ...recordedThird.map((p) => `${p}-v3`), ...recordedAttrs.map((p) => `${p}-attrs`)];
    expect(files).toEqual(expect.arrayContaining(all.map((p) => `call-history-${p}.json`)));
  });

  it('records every path the recorder knows', () => {
    expect(Object.keys(callPaths)).toEqual(recorded);
  });

  it('covers every call workflow type', () => {
    expect(new Set(files.map((f) => typeOf(historyOf(loadFixture(f)))))).toEqual(new Set(['outboundCall', 'deliverCallEvent', 'reclaimUnstartedCalls']));
  });

  it('has the slot wait before and after the wake-up patch', () => {
    const activities = (file: string) =>
      historyOf(loadFixture(file)).events!.flatMap(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? (e.timerStartedEventAttributes ? 'timer' : []),
      );
    const before = activities('call-history-slot-wait.json');
    const after = activities('call-history-slot-wait-v2.json');
    expect(before.slice(0, before.indexOf('placeCall'))).toContain('timer');
    expect(after.slice(0, after.indexOf('placeCall'))).toEqual(['prepareCall', 'msUntilCallWindow', 'acquireCallSlot', 'waitForCallSlot']);
  });

  it('reads the provider on silence and on a recheck only after the provider-truth patch', () => {
    const activities = (file: string) => historyOf(loadFixture(file)).events!.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    const silent = (file: string) => activities(file).slice(activities(file).indexOf('placeCall') + 1);
    expect(silent('call-history-provider-timeout-v2.json')).not.toContain('readProviderCall');
    expect(silent('call-history-provider-timeout-v3.json')).toEqual(['readProviderCall', 'recordCallChange', 'stopProviderCall', 'endCall', 'releaseCallSlot']);
    expect(activities('call-history-recheck.json')).toContain('readProviderCall');
  });

  it.each(files)('replays %s deterministically with the current workflow code', async (file) => {
    const f = loadFixture(file);
    const h = historyOf(f);
    expect(h.events!.length).toBeGreaterThan(5);
    await expect(replayHistory(f, h)).resolves.toBeUndefined();
  });

  it('detects a history the code would not produce (the check is live)', async () => {
    await expect(replayWithActivityRenamed('call-history-transfer.json', 'placeCall', 'stopProviderCall')).rejects.toThrow(/[Nn]ondetermin/);
  });

  it('detects a changed deliverCallEvent history too', async () => {
    await expect(replayWithActivityRenamed('call-history-event-delivered.json', 'publishCallEvent', 'placeCall')).rejects.toThrow(/[Nn]ondetermin/);
  });

  it('detects a changed reclaimUnstartedCalls history too', async () => {
    await expect(replayWithActivityRenamed('call-history-reclaim.json', 'reclaimUnstartedCall', 'unstartedCallsToCheck')).rejects.toThrow(/[Nn]ondetermin/);
  });
});
