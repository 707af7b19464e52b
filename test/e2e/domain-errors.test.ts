import { temporal } from '@temporalio/proto';
import { finished, importSteps, newPhone, runOf } from '../helpers/journeys';
import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ workers: true });
});
afterAll(() => app.close());

const EventType = temporal.api.enums.v1.EventType;

describe('a domain error on each side of the api', () => {
  it('REST answers an invalid_fields error with 400 in the error shape and stores nothing', async () => {
    const ws = await app.newWorkspace();
    const journey = await importSteps(app, ws.workspaceId, [{ id: 'stop', kind: 'end' }]);
    const body = { workflow_id: journey.id, record: { phone: newPhone(), email: 'not-an-email' } };
    const res = await app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'failed', message: 'email: Invalid email address' });
    expect(await app.db.query('SELECT 1 FROM leads WHERE workspace_id = $1', [ws.workspaceId])).toHaveLength(0);
    // With an Idempotency-Key the 400 is recorded and replayed, as any 4xx is.
    const headers = { 'Idempotency-Key': 'domain-error-1' };
    const first = await app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body, headers });
    const again = await app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body, headers });
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([400, 400, 'true']);
  });

  it('a journey step failing with it fails once, not retried, with the code as its failure type', async () => {
    const ws = await app.newWorkspace();
    const journey = await importSteps(app, ws.workspaceId, [
      { id: 'set', kind: 'update_lead', fields: { email: 'not-an-email' } },
      { id: 'stop', kind: 'end' },
    ]);
    const res = await app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body: { workflow_id: journey.id, record: { phone: newPhone() } } });
    expect(res.status).toBe(200);
    const state = await finished(app, journey.id, res.body.lead_id);
    expect(state.history[0]).toMatchObject({ step_id: 'set', outcome: 'failed', detail: 'invalid_fields: email: Invalid email address' });

    const { events } = await runOf(app, journey.id, res.body.lead_id).fetchHistory();
    const scheduled = events!.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
    const updateId = scheduled.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'journeyUpdateLead')!.eventId;
    const started = events!.filter((e) => e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === updateId?.toString());
    // One attempt: a retried activity would show attempt > 1 (or never end).
    expect(started.map((e) => e.activityTaskStartedEventAttributes!.attempt)).toEqual([1]);
  });
});
