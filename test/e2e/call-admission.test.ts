// Call admission (src/calls/admission.ts) is one judgement for every caller: for the same lead, POST /v1/agent, a
// journey's call step and a call started as journeys and campaigns start it (the outboundCall workflow, waiting for a
// slot) meet the same do-not-call refusal and the same call window.
import { randomUUID } from 'node:crypto';
import { startOutboundCall } from '../../src/calls/start';
import { callWorkflowId } from '../../src/temporal/ids';
import { callResult, callingWorkspace, phoneEnding } from '../helpers/calls';
import { finished, importSteps } from '../helpers/journeys';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ workers: true, simulator: true });
});
afterAll(() => app.close());

/** A workspace with an agent and a lead (by phone) that a journey of one call step calls. */
async function leadToCall(last4: string) {
  const ws = await callingWorkspace(app);
  const phone = phoneEnding(last4);
  const leadId = (await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone } })).body.lead_id as string;
  const api = () => app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: ws.agentId, phone } });
  /** Starts the lead's call as a journey's call step and a campaign do: the outboundCall workflow, waiting for a slot. */
  const queued = async () => {
    const callId = randomUUID();
    await startOutboundCall(app.temporal.client, app.config.TEMPORAL_TASK_QUEUE_PREFIX, {
      callId,
      workspaceId: ws.workspaceId,
      agentId: ws.agentId,
      to: phone,
      leadId,
      waitForSlot: true,
      source: 'journey',
    });
    return callId;
  };
  const calls = () => app.db.query('SELECT id FROM calls WHERE workspace_id = $1', [ws.workspaceId]);
  return { ...ws, phone, leadId, api, queued, calls };
}

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(String(t?.seconds ?? 0)) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);

describe('call admission, one verdict for every caller', () => {
  it('refuses a lead on the do-not-call list through the api, a journey call step and a queued call alike', async () => {
    const t = await leadToCall('0001');
    await app.db.query("INSERT INTO do_not_call (workspace_id, phone, reason) VALUES ($1, $2, 'asked')", [t.workspaceId, t.phone]);

    const refused = await t.api();
    expect([refused.status, refused.body]).toEqual([409, { status: 'failed', message: 'Phone number is on the do-not-call list: no call placed' }]);

    const journey = await importSteps(app, t.workspaceId, [
      { id: 'ring', kind: 'call', agent: t.agentId },
      { id: 'stop', kind: 'end' },
    ]);
    expect((await app.request('POST', '/v1/lead/sendtoworkflow', { key: t.apiKey, body: { workflow_id: journey.id, lead_id: t.leadId } })).status).toBe(200);
    const end = await finished(app, journey.id, t.leadId);
    expect(end.history.map((h) => [h.step_id, h.outcome, h.detail ?? null])).toEqual([
      ['ring', 'skipped', 'dnc'],
      ['stop', 'done', null],
    ]);

    const callId = await t.queued();
    expect(await callResult(app, callId)).toMatchObject({ outcome: 'failed', endedReason: 'do_not_call' });
    expect(await t.calls()).toEqual([]);
    expect(app.simulator!.ledger.entries.filter((e) => e.to.replace(/^\+/, '') === t.phone)).toEqual([]);
  });

  it('holds a queued call until the instant the api names when it refuses a call outside the window', async () => {
    const t = await leadToCall('0001');
    // Open only on a day that is not today in the workspace's zone.
    const today = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: t.timezone }).format(new Date()).toLowerCase();
    const day = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].find((d) => d !== today)!;
    await app.db.query('UPDATE agents SET call_window = $2 WHERE id = $1', [t.agentId, JSON.stringify({ start: '08:00', end: '21:00', days: [day] })]);

    const refused = await t.api();
    expect(refused.status).toBe(409);
    const opens = /^Outside the call window \(08:00–21:00 (\S+)\): no call placed; it opens at (\S+)$/.exec(refused.body.message);
    expect(opens?.[1]).toBe(t.timezone);
    const opensAt = Date.parse(opens![2]!);

    const callId = await t.queued();
    const handle = app.temporal.client.workflow.getHandle(callWorkflowId(callId));
    const timer = await eventually(
      async () => (await handle.fetchHistory()).events!.find((e) => e.timerStartedEventAttributes),
      30_000,
      'the call to wait for its window',
    );
    // The wait was worked out a moment before its timer started: it fires within the minute the window opens in.
    const fires = ms(timer!.eventTime) + ms(timer!.timerStartedEventAttributes!.startToFireTimeout);
    expect(Math.floor(fires / 60_000) * 60_000).toBe(opensAt);
    expect(app.simulator!.ledger.entries.filter((e) => e.to.replace(/^\+/, '') === t.phone)).toEqual([]);
    await handle.cancel();
    expect(await callResult(app, callId)).toMatchObject({ outcome: 'canceled' });
  });
});
