// The journey `call` step end to end: the journey run starts outboundCall as a child, the carrier simulator plays the
// call out by the number's last four digits, and the journey branches on the outcome.
import { addTag } from '../../src/leads/db/leads';
import { callWorkflowId } from '../../src/temporal/ids';
import type { JourneyState } from '../../workflows/journeys/journey-messages';
import { callingWorkspace, phoneEnding } from '../helpers/calls';
import { enrollmentRows, finished, importSteps, leadRow, stateOf } from '../helpers/journeys';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ workers: true, simulator: true });
});
afterAll(() => app.close());

const steps = (s: JourneyState) => s.history.map((h) => `${h.step_id}:${h.outcome}`);
const callIdsOf = (s: JourneyState, stepId: string) =>
  s.history.filter((h) => h.step_id === stepId).flatMap((h) => [...(h.detail ?? '').matchAll(/call (\S{36})/g)].map((m) => m[1]!));

// Every call step here may ring at any hour (the default window, 08:00-21:00 local, would make the tests depend on
// the time of day they run at); the window itself has h1's tests.
const ANY_TIME = { start: '00:00', end: '23:59' };
// Waits of a millisecond: these tests check the order of calls and waits, not how long a wait lasts (waits that last
// run on the time-skipping server, journeys-time.test.ts), so none sits on a workflow timer in real time.
const MOMENT = 'PT0.001S';

/** A workspace with an agent (and its phone group) and the journey; enroll() puts a lead with this phone in it. */
async function tenant(journey: (agent: string) => unknown[]) {
  const ws = await callingWorkspace(app);
  const { id: journeyId } = await importSteps(app, ws.workspaceId, journey(ws.agentId));
  const enroll = async (phone: string, before?: (leadId: string) => Promise<void>) => {
    const lead = (await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone } })).body.lead_id as string;
    await before?.(lead);
    const res = await app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body: { workflow_id: journeyId, lead_id: lead } });
    expect(res.status).toBe(200);
    return lead;
  };
  return { ...ws, journeyId, enroll };
}

/** The simulator's ledger entries for a number. */
const dialled = (phone: string) => app.simulator!.ledger.entries.filter((e) => e.to.replace(/^\+/, '') === phone);

describe('the journey call step', () => {
  it('calls, branches on no_answer, waits, calls again with the step retries, and tags', async () => {
    const t = await tenant((agent) => [
      { id: 'ring', kind: 'call', agent, window: ANY_TIME },
      { id: 'answered', kind: 'branch', cases: [{ when: { outcome: 'no_answer' }, goto: 'later' }], else: 'talked' },
      { id: 'later', kind: 'wait', duration: MOMENT },
      { id: 'ring_again', kind: 'call', agent, window: ANY_TIME, retries: { attempts: 1, spacing: MOMENT }, retry_on: ['no_answer', 'busy'] },
      { id: 'answered_again', kind: 'branch', cases: [{ when: { outcome: ['human', 'transferred'] }, goto: 'talked' }], else: 'unreachable' },
      { id: 'unreachable', kind: 'tag', tag: 'unreachable' },
      { id: 'stop', kind: 'end' },
      { id: 'talked', kind: 'tag', tag: 'talked' },
    ]);
    const phone = phoneEnding('0003');
    const lead = await t.enroll(phone);
    const end = await finished(app, t.journeyId, lead);

    expect(steps(end)).toEqual([
      'ring:no_answer',
      'answered:done',
      'later:done',
      'ring_again:no_answer',
      'answered_again:done',
      'unreachable:done',
      'stop:done',
    ]);
    expect((await leadRow(app, t.workspaceId, lead)).tags).toEqual(['unreachable']);

    // Three calls, each its own call id and workflow, each dialled once.
    const ids = [...callIdsOf(end, 'ring'), ...callIdsOf(end, 'ring_again')];
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    const ledger = dialled(phone);
    expect(ledger.map((e) => e.callId).sort()).toEqual([...ids].sort());
    expect(ledger.every((e) => e.repeatedCreates === 0)).toBe(true);
    for (const id of ids) {
      const desc = await app.temporal.client.workflow.getHandle(callWorkflowId(id)).describe();
      expect(desc.status.name).toBe('COMPLETED');
    }
    // The calls are the lead's, in the workspace's list.
    const listed = await app.request('GET', `/v1/calls?lead_id=${lead}`, { key: t.apiKey });
    expect(listed.body.calls.map((c: { call_id: string; status: string }) => [c.call_id, c.status]).sort()).toEqual(ids.map((id) => [id, 'no_answer']).sort());
  });

  it('calls once when a person answers, and branches on human', async () => {
    const t = await tenant((agent) => [
      { id: 'ring', kind: 'call', agent, window: ANY_TIME, retries: { attempts: 2, spacing: MOMENT } },
      { id: 'answered', kind: 'branch', cases: [{ when: { outcome: 'human' }, goto: 'talked' }], else: 'stop' },
      { id: 'talked', kind: 'tag', tag: 'talked' },
      { id: 'stop', kind: 'end' },
    ]);
    const phone = phoneEnding('0001');
    const lead = await t.enroll(phone);
    const end = await finished(app, t.journeyId, lead);
    expect(steps(end)).toEqual(['ring:human', 'answered:done', 'talked:done', 'stop:done']);
    expect((await leadRow(app, t.workspaceId, lead)).tags).toEqual(['talked']);
    const [id] = callIdsOf(end, 'ring');
    expect(dialled(phone).map((e) => e.callId)).toEqual([id]);
    const call = await app.request('GET', `/v1/calls/get?call_id=${id}`, { key: t.apiKey });
    expect(call.body[0]).toMatchObject({ call_id: id, phone_to: phone, answered_by: 'human', agent: t.agentId, status: 'completed' });
  });

  it('never dials a lead on the do-not-call list: the step is skipped (dnc)', async () => {
    const t = await tenant((agent) => [
      { id: 'ring', kind: 'call', agent, window: ANY_TIME },
      { id: 'after', kind: 'tag', tag: 'after' },
    ]);
    const phone = phoneEnding('0011');
    const lead = await t.enroll(phone, async (id) => void (await addTag(app.db, t.workspaceId, id, 'dnc')));
    const end = await finished(app, t.journeyId, lead);
    expect(end.history.map((h) => `${h.step_id}:${h.outcome}:${h.detail ?? ''}`)).toEqual(['ring:skipped:dnc', 'after:done:']);
    expect(dialled(phone)).toEqual([]);
  });

  it('waits for a concurrent-call slot rather than failing, and calls once one is free', async () => {
    const t = await tenant((agent) => [
      { id: 'ring', kind: 'call', agent, window: ANY_TIME },
      { id: 'stop', kind: 'end' },
    ]);
    await app.db.query('UPDATE workspaces SET max_concurrent_calls = 0 WHERE id = $1', [t.workspaceId]);
    const phone = phoneEnding('0001');
    const lead = await t.enroll(phone);
    const callId = await eventually(async () => (await callsOf(lead))[0]?.id, 30_000, 'the call row');
    // The call waits (in its slot-waiting activity) and nothing was dialled.
    const waiting = (e: Awaited<ReturnType<typeof historyOf>>[number]) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'waitForCallSlot';
    await eventually(async () => (await historyOf(callId)).some(waiting), 30_000, 'the slot wait');
    expect(dialled(phone)).toEqual([]);
    expect((await stateOf(app, t.journeyId, lead)).current_step).toBe('ring');

    // A raised cap announces nothing: the wait finds the slot when it looks again (within 10 s).
    await app.db.query('UPDATE workspaces SET max_concurrent_calls = 1 WHERE id = $1', [t.workspaceId]);
    const end = await finished(app, t.journeyId, lead);
    expect(steps(end)).toEqual(['ring:human', 'stop:done']);
    expect(dialled(phone).map((e) => e.callId)).toEqual([callId]);
  });

  it('an unenrollment mid-call hangs the call up: the call ends canceled, the enrollment unenrolled', async () => {
    const t = await tenant((agent) => [
      { id: 'ring', kind: 'call', agent, window: ANY_TIME },
      { id: 'after', kind: 'tag', tag: 'after' },
    ]);
    const phone = phoneEnding('0007'); // the provider accepts the call and then says nothing
    const lead = await t.enroll(phone);
    const placed = await eventually(async () => dialled(phone)[0], 30_000, 'the call to be placed');
    const res = await app.request('POST', '/v1/lead/unenroll', { key: t.apiKey, body: { workflow_id: t.journeyId, lead_id: lead, reason: 'opted out' } });
    expect(res.status).toBe(200);
    expect((await enrollmentRows(app, lead)).map((r) => r.status)).toEqual(['unenrolled']);
    const result = await app.temporal.client.workflow.getHandle(callWorkflowId(placed.callId!)).result();
    expect(result).toMatchObject({ outcome: 'canceled', status: 'canceled' });
    expect((await callsOf(lead)).map((c) => c.status)).toEqual(['canceled']);
    expect(dialled(phone)).toHaveLength(1);
    expect((await leadRow(app, t.workspaceId, lead)).tags).toEqual([]);
  });
});

const callsOf = (leadId: string) =>
  app.db.query<{ id: string; status: string }>('SELECT id, status FROM calls WHERE lead_id = $1 AND parent_id IS NULL', [leadId]);
const historyOf = async (callId: string) => (await app.temporal.client.workflow.getHandle(callWorkflowId(callId)).fetchHistory()).events!;
