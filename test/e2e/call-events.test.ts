import { randomUUID } from 'node:crypto';
import { createCallEventActivities } from '../../activities/calls/call-events';
import { callEventId } from '../../src/calls/events';
import { webhookSecrets } from '../../src/webhooks/db/webhook-secrets';
import { createLogger } from '../../src/telemetry/log';
import { callEventWorkflowId } from '../../src/temporal/ids';
import { taskQueue } from '../../src/temporal/task-queues';
import { deliverCallEvent } from '../../workflows/calls/call-events';
import { callingWorkspace, callResult, phoneEnding } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually, verifySignature, WebhookReceiver } from '../helpers/webhook-receiver';

jest.setTimeout(120_000);

let app: TestApp;
const receiver = new WebhookReceiver();
let hooks: string;
beforeAll(async () => {
  app = await startTestApp({ workers: true, simulator: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
  hooks = await receiver.start();
});
afterAll(async () => {
  await receiver.close();
  await app.close();
});

const subscribe = (key: string, body: unknown) => app.request('POST', '/v1/calls/subscriptions', { key, body });

/** A finished call with one transfer leg, as the call workflow leaves it in Postgres. */
async function transferredCall(workspaceId: string): Promise<string> {
  const id = randomUUID();
  await app.db.query(
    `INSERT INTO calls (id, workspace_id, phone_to, phone_from, status, disposition, answered_by, transferred, call_start, call_end, request_data)
     VALUES ($1, $2, '17145550005', '17145559999', 'completed', 'Completed', 'human', true, '2026-01-05T15:00:00Z', '2026-01-05T15:01:30Z', '{"ref": 7}')`,
    [id, workspaceId],
  );
  await app.db.query(
    `INSERT INTO calls (id, workspace_id, parent_id, leg, phone_to, phone_from, status, disposition, call_start, call_end)
     VALUES ($1, $2, $3, 1, '17145551111', '17145550005', 'completed', 'Completed', '2026-01-05T15:01:00Z', '2026-01-05T15:01:30Z')`,
    [`${id}:1`, workspaceId, id],
  );
  return id;
}

describe('call event subscriptions', () => {
  it('creates, lists and deletes subscriptions, only within the workspace', async () => {
    const a = await app.newWorkspace();
    const b = await app.newWorkspace();
    const created = await subscribe(a.apiKey, { url: `${hooks}/a`, events: ['call.completed'] });
    expect(created.status).toBe(200);
    expect(created.body.subscription).toEqual({ id: expect.any(String), url: `${hooks}/a`, events: ['call.completed'], created_at: expect.any(String) });
    const both = await subscribe(a.apiKey, { url: `${hooks}/both` });
    expect(both.body.subscription.events).toEqual(['call.started', 'call.completed']);
    // A host that does not resolve now is saved: each delivery checks the address it connects to.
    const later = await subscribe(a.apiKey, { url: 'https://hooks.invalid/calls' });
    expect(later.status).toBe(200);
    await app.request('DELETE', `/v1/calls/subscriptions?id=${later.body.subscription.id}`, { key: a.apiKey });

    const listed = await app.request('GET', '/v1/calls/subscriptions', { key: a.apiKey });
    expect(listed.body.subscriptions.map((s: { url: string }) => s.url)).toEqual([`${hooks}/a`, `${hooks}/both`]);
    expect((await app.request('GET', '/v1/calls/subscriptions', { key: b.apiKey })).body.subscriptions).toEqual([]);

    const id = created.body.subscription.id as string;
    const other = await app.request('DELETE', `/v1/calls/subscriptions?id=${id}`, { key: b.apiKey });
    expect(other).toMatchObject({ status: 404, body: { status: 'failed', message: 'Subscription not found' } });
    expect((await app.request('DELETE', `/v1/calls/subscriptions?id=${id}`, { key: a.apiKey })).body).toEqual({
      status: 'success',
      id,
      message: 'Subscription deleted',
    });
    expect((await app.request('DELETE', `/v1/calls/subscriptions?id=${id}`, { key: a.apiKey })).status).toBe(404);
    expect((await app.request('GET', '/v1/calls/subscriptions', { key: a.apiKey })).body.subscriptions).toHaveLength(1);
  });

  it('refuses URLs the SSRF guard refuses, and bad bodies, saving nothing', async () => {
    const t = await app.newWorkspace();
    const cases: [unknown, RegExp][] = [
      [{ url: 'http://169.254.169.254/latest/meta-data' }, /url: .*link-local/],
      [{ url: 'http://10.1.2.3/hook' }, /url: .*not in SSRF_ALLOWLIST/],
      [{ url: 'http://[::ffff:10.0.0.1]/hook' }, /url: .*not in SSRF_ALLOWLIST/],
      [{ url: 'ftp://example.com/x' }, /url: an http\(s\) URL/],
      [{ url: 'http://user:pw@127.0.0.1/x' }, /url: credentials/],
      [{}, /url: required/],
      [{ url: `${hooks}/x`, events: ['call.ringing'] }, /events/],
      [{ url: `${hooks}/x`, events: ['call.started', 'call.started'] }, /no event type twice/],
      [{ url: `${hooks}/x`, extra: 1 }, /extra/],
    ];
    for (const [body, message] of cases) {
      const res = await subscribe(t.apiKey, body);
      expect({ body, status: res.status, failed: res.body.status }).toEqual({ body, status: 400, failed: 'failed' });
      expect(res.body.message).toMatch(message);
    }
    expect((await app.request('DELETE', '/v1/calls/subscriptions?id=nope', { key: t.apiKey })).status).toBe(400);
    expect((await app.request('GET', '/v1/calls/subscriptions', { key: t.apiKey })).body.subscriptions).toEqual([]);
  });

  it(`caps a workspace's subscriptions`, async () => {
    const t = await app.newWorkspace();
    const results = await Promise.all(Array.from({ length: 27 }, (_, i) => subscribe(t.apiKey, { url: `${hooks}/cap/${i}` })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(25);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(2);
    expect(refused[0]!.body.message).toMatch(/at most 25/);
  });
});

describe('publishCallEvent', () => {
  const activities = () => createCallEventActivities({ db: app.db, logger: createLogger('silent', 'test'), ssrfAllowlist: ['127.0.0.1/8'] });

  it('sends each subscriber the signed event once; a retry re-sends only to those that failed', async () => {
    const t = await app.newWorkspace({ superuser: true });
    receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: t.superuserKey })).body.webhook_secret;
    const p = `/pub-${t.workspaceId}`;
    receiver.script(`${p}/flaky`, [503, 200]);
    receiver.script(`${p}/gone`, [410]);
    for (const path of ['ok', 'flaky', 'gone'])
      expect((await subscribe(t.apiKey, { url: `${hooks}${p}/${path}`, events: ['call.completed'] })).status).toBe(200);
    await subscribe(t.apiKey, { url: `${hooks}${p}/started-only`, events: ['call.started'] });
    const callId = await transferredCall(t.workspaceId);
    const eventId = callEventId(callId, 'call.completed');
    const input = { workspaceId: t.workspaceId, callId, type: 'call.completed' as const, eventId };

    await expect(activities().publishCallEvent(input)).rejects.toMatchObject({ type: 'call_event_undelivered', nonRetryable: false });
    expect(await activities().publishCallEvent(input)).toEqual({ delivered: 1, refused: 0 });
    expect(await activities().publishCallEvent(input)).toEqual({ delivered: 0, refused: 0 });

    expect(Object.fromEntries([...receiver.ledger()].filter(([id]) => id === eventId))).toEqual({ [eventId]: 4 });
    expect(receiver.on(`${p}/ok`).map((d) => d.status)).toEqual([200]);
    expect(receiver.on(`${p}/flaky`).map((d) => d.status)).toEqual([503, 200]);
    expect(receiver.on(`${p}/gone`).map((d) => d.status)).toEqual([410]);
    expect(receiver.on(`${p}/started-only`)).toEqual([]);

    const deliveries = [...receiver.on(`${p}/ok`), ...receiver.on(`${p}/flaky`)];
    for (const d of deliveries) {
      expect(d.eventId).toBe(eventId);
      expect(verifySignature(receiver.secret, d.signature, d.body)).toBe(true);
    }
    const body = JSON.parse(deliveries[0]!.body);
    expect(body).toEqual({
      id: eventId,
      type: 'call.completed',
      created_at: expect.stringMatching(/Z$/),
      data: {
        call: {
          call_id: callId,
          phone_to: '17145550005',
          phone_from: '17145559999',
          call_start: '2026-01-05T15:00:00.000Z',
          call_end: '2026-01-05T15:01:30.000Z',
          disposition: 'Completed',
          answered_by: 'human',
          agent: null,
          direction: 'out',
          transfer: true,
          status: 'completed',
          ended_reason: null,
          duration: 90,
          transcript: null,
          recording_url: null,
          request_data: { ref: 7 },
        },
        legs: [expect.objectContaining({ call_id: `${callId}:1`, is_transfer: true, phone_from: '17145550005', duration: 30 })],
      },
    });
    expect(body.data.legs[0]).not.toHaveProperty('answered_by');
  });

  it("sends nothing for another workspace's call", async () => {
    const owner = await app.newWorkspace();
    const other = await app.newWorkspace();
    await subscribe(other.apiKey, { url: `${hooks}/other-${other.workspaceId}` });
    const callId = await transferredCall(owner.workspaceId);
    const r = await activities().publishCallEvent({
      workspaceId: other.workspaceId,
      callId,
      type: 'call.started',
      eventId: callEventId(callId, 'call.started'),
    });
    expect(r).toEqual({ delivered: 0, refused: 0 });
    expect(receiver.on(`/other-${other.workspaceId}`)).toEqual([]);
  });

  it('is delivered by the deliverCallEvent workflow on the worker, retried after a 5xx', async () => {
    const t = await app.newWorkspace({ superuser: true });
    receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: t.superuserKey })).body.webhook_secret;
    const path = `/wf-${t.workspaceId}`;
    receiver.script(path, [500, 200]);
    await subscribe(t.apiKey, { url: `${hooks}${path}` });
    const callId = await transferredCall(t.workspaceId);
    const eventId = callEventId(callId, 'call.started');
    const result = await app.temporal.client.workflow.execute(deliverCallEvent, {
      workflowId: callEventWorkflowId(eventId),
      taskQueue: taskQueue('calls', app.config.TEMPORAL_TASK_QUEUE_PREFIX),
      args: [{ workspaceId: t.workspaceId, callId, type: 'call.started', eventId }],
    });
    expect(result).toEqual({ delivered: 1, refused: 0 });
    expect(receiver.on(path).map((d) => [d.status, d.eventId, d.verified])).toEqual([
      [500, eventId, true],
      [200, eventId, true],
    ]);
    // The retry sent the same bytes: created_at is when the event was first scheduled.
    expect(new Set(receiver.on(path).map((d) => d.body)).size).toBe(1);
  });
});

describe('call events from real calls', () => {
  it('a transferred call sends call.started, then call.completed with its leg, once each, signed', async () => {
    const t = await callingWorkspace(app);
    const path = `/real-${t.workspaceId}`;
    await subscribe(t.apiKey, { url: `${hooks}${path}` });
    const res = await app.request('POST', '/v1/agent', { key: t.apiKey, body: { agent: t.agentId, phone: phoneEnding('0005') } });
    expect(res.status).toBe(200);
    const callId = res.body.call_id as string;
    expect((await callResult(app, callId)).outcome).toBe('transferred');

    const deliveries = await eventually(async () => receiver.on(path).length >= 2 && receiver.on(path), 60_000, 'both call events');
    receiver.secret = (await webhookSecrets(app.db, t.workspaceId))!.current;
    // Two event workflows, each delivering on its own: sorted by type, not by arrival.
    const bodies = deliveries.map((d) => JSON.parse(d.body)).sort((a, b) => (a.type === 'call.started' ? -1 : b.type === 'call.started' ? 1 : 0));
    expect(bodies.map((b) => [b.type, b.id])).toEqual([
      ['call.started', callEventId(callId, 'call.started')],
      ['call.completed', callEventId(callId, 'call.completed')],
    ]);
    for (const d of deliveries) expect(verifySignature(receiver.secret, d.signature, d.body)).toBe(true);
    const completed = bodies[1];
    expect(completed.data.call).toMatchObject({ call_id: callId, status: 'completed', transfer: true, answered_by: 'human', agent: t.agentId });
    expect(completed.data.legs).toEqual([expect.objectContaining({ call_id: `${callId}:1`, is_transfer: true, status: 'completed' })]);
    // The same body as GET /v1/calls/get answers for the call.
    const got = await app.request('GET', `/v1/calls/get?call_id=${callId}`, { key: t.apiKey });
    expect([completed.data.call, ...completed.data.legs]).toEqual(got.body);
    // Each event workflow has finished: nothing more will come.
    for (const type of ['call.started', 'call.completed'] as const) {
      await app.temporal.client.workflow.getHandle(callEventWorkflowId(callEventId(callId, type))).result();
    }
    expect(receiver.on(path)).toHaveLength(2);
  });
});
