import { randomUUID } from 'node:crypto';
import { acquireCallSlot, reclaimStaleSlots, releaseCallSlot } from '../../src/calls/db/call-slots';
import { ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { admitApiCall } from '../../src/calls/admission';
import { ensureReclaimSchedule, reclaimScheduleId } from '../../src/calls/schedule';
import { placeApiCall } from '../../src/calls/place';
import { startOutboundCall } from '../../src/calls/start';
import type { Db } from '../../src/db/pool';
import { deleteUnstartedCall, endCall } from '../../src/calls/db/calls';
import { callWorkflowId } from '../../src/temporal/ids';
import { taskQueue } from '../../src/temporal/task-queues';
import { reclaimUnstartedCalls } from '../../workflows/calls/reclaim';
import { startCallbackGate } from '../helpers/callback-gate';
import { callResult, callingWorkspace, phoneEnding } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

let app: TestApp;
let gate: Awaited<ReturnType<typeof startCallbackGate>>;

beforeAll(async () => {
  // The simulator's callbacks reach the api through a gate that can hold them (a call then stays in progress).
  gate = await startCallbackGate();
  // Silent calls (0007) hold their slot until cancelled: the provider timeout stays at its default (minutes), so none
  // ends on its own however slow the machine. That end (and its slot freed): calls-time.test.ts, on the time-skipping server.
  app = await startTestApp({ workers: true, simulator: { speed: 20 }, config: { TELEPHONY_CALLBACK_BASE_URL: gate.url } });
  gate.forwardTo(app.url);
});
afterAll(async () => {
  await app.close();
  await gate.close();
});
afterEach(() => gate.release());

const post = (ws: { apiKey: string; agentId: string }, last4: string) =>
  app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: ws.agentId, phone: phoneEnding(last4) } });

/** The workspace's slot counter and the calls that hold a slot: always equal. */
async function slots(workspaceId: string) {
  const counter = await app.db.one<{ used: number }>('SELECT used FROM call_slot_counts WHERE workspace_id = $1', [workspaceId]);
  const held = await app.db.query<{ id: string }>('SELECT id FROM calls WHERE workspace_id = $1 AND slot_taken_at IS NOT NULL', [workspaceId]);
  return { used: counter?.used ?? 0, held: held.map((r) => r.id).sort() };
}

/** Starts a call as a journey's call step does (it waits for a slot over the cap). */
async function journeyCall(ws: { workspaceId: string; agentId: string }, last4: string) {
  const callId = randomUUID();
  await startOutboundCall(app.temporal.client, app.config.TEMPORAL_TASK_QUEUE_PREFIX, {
    callId,
    workspaceId: ws.workspaceId,
    agentId: ws.agentId,
    to: phoneEnding(last4),
    waitForSlot: true,
    source: 'journey',
  });
  return app.temporal.client.workflow.getHandle(callWorkflowId(callId));
}

/** Waits until the call's run waits for a slot in its activity. */
const waitingActivity = (workflowId: string) =>
  eventually(
    async () =>
      !!(await app.temporal.client.workflow.getHandle(workflowId).describe()).raw.pendingActivities?.some((a) => a.activityType?.name === 'waitForCallSlot'),
    30_000,
    'the call to wait for a slot',
  );

async function cappedWorkspace(cap: number) {
  const ws = await callingWorkspace(app);
  await app.db.query('UPDATE workspaces SET max_concurrent_calls = $2 WHERE id = $1', [ws.workspaceId, cap]);
  return ws;
}

describe('the concurrent-call slot counter', () => {
  it('places exactly cap calls out of cap + k concurrent posts, answers the rest 429, and frees every slot at the end', async () => {
    const cap = 4;
    const extra = 8;
    const ws = await cappedWorkspace(cap);
    const answers = await Promise.all(Array.from({ length: cap + extra }, () => post(ws, '0007')));
    const placed = answers.filter((r) => r.status === 200).map((r) => r.body.call_id as string);
    expect(answers.map((r) => r.status).sort()).toEqual([...Array(cap).fill(200), ...Array(extra).fill(429)]);
    expect(await slots(ws.workspaceId)).toEqual({ used: cap, held: [...placed].sort() });
    // Refused posts wrote nothing.
    expect(await app.db.query('SELECT id FROM calls WHERE workspace_id = $1', [ws.workspaceId])).toHaveLength(cap);

    // Each is cancelled, concurrently: every slot comes back (the other ends: the cases below and calls-time.test.ts).
    const cancels = await Promise.all(placed.map((id) => app.request('POST', '/v1/calls/cancel', { key: ws.apiKey, body: { call_id: id } })));
    expect(cancels.map((r) => r.status)).toEqual(Array(cap).fill(200));
    const results = await Promise.all(placed.map((id) => callResult(app, id)));
    expect(results.map((r) => r.endedReason)).toEqual(Array(cap).fill('canceled'));
    expect(await slots(ws.workspaceId)).toEqual({ used: 0, held: [] });
    expect((await post(ws, '0001')).status).toBe(200);
  });

  it.each([
    ['0001', 'human'],
    ['0003', 'no_answer'],
    ['0004', 'busy'],
    ['0006', 'transferred'],
  ])('frees the slot of a call to …%s once it ends (%s)', async (last4, outcome) => {
    const ws = await cappedWorkspace(1);
    // Its callbacks held, the call cannot end (a busy one would in 75 ms at speed 20) before the checks below.
    gate.hold();
    const res = await post(ws, last4);
    expect(res.status).toBe(200);
    expect((await slots(ws.workspaceId)).used).toBe(1);
    expect((await post(ws, '0001')).status).toBe(429);
    gate.release();
    expect((await callResult(app, res.body.call_id)).outcome).toBe(outcome);
    expect(await slots(ws.workspaceId)).toEqual({ used: 0, held: [] });
  });

  it('forgets a call whose workflow could not start, its slot freed, though the database also failed the first delete', async () => {
    const ws = await callingWorkspace(app);
    // Temporal refuses the start (as when its own database is down) and the first delete meets the database down too.
    const down = { workflow: { start: () => Promise.reject(new Error('Temporal unavailable')) } } as unknown as Client;
    let failures = 1;
    const db = new Proxy(app.db, {
      get: (target, key) => (key === 'tx' && failures-- > 0 ? () => Promise.reject(new Error('connection terminated')) : Reflect.get(target, key, target)),
    }) as Db;
    const placing = placeApiCall({ db, client: down, taskQueuePrefix: app.config.TEMPORAL_TASK_QUEUE_PREFIX }, ws.workspaceId, {
      agent: ws.agentId,
      phone: phoneEnding('0001'),
    });
    await expect(placing).rejects.toThrow('Temporal unavailable');
    expect((await slots(ws.workspaceId)).used).toBe(1);
    await eventually(async () => (await slots(ws.workspaceId)).used === 0, 30_000, 'the slot freed by the retried delete');
    expect(await slots(ws.workspaceId)).toEqual({ used: 0, held: [] });
    expect(await app.db.query('SELECT id FROM calls WHERE workspace_id = $1', [ws.workspaceId])).toEqual([]);
  });

  it('releases a slot once however often and however concurrently it is released', async () => {
    const ws = await cappedWorkspace(2);
    const ids = [randomUUID(), randomUUID()];
    for (const id of ids) {
      await app.db.query("INSERT INTO calls (id, workspace_id, phone_to, phone_from) VALUES ($1, $2, '12125550000', '12125559002')", [id, ws.workspaceId]);
    }
    // Two concurrent takers for the same call take one slot.
    expect(await Promise.all([acquireCallSlot(app.db, ws.workspaceId, ids[0]!), acquireCallSlot(app.db, ws.workspaceId, ids[0]!)])).toEqual(['taken', 'taken']);
    expect(await acquireCallSlot(app.db, ws.workspaceId, ids[1]!)).toBe('taken');
    expect((await slots(ws.workspaceId)).used).toBe(2);
    await Promise.all([
      releaseCallSlot(app.db, ids[0]!),
      releaseCallSlot(app.db, ids[0]!),
      endCall(app.db, ids[0]!, { status: 'canceled', outcome: 'canceled', endedReason: 'canceled' }),
    ]);
    expect(await slots(ws.workspaceId)).toEqual({ used: 1, held: [ids[1]] });
    await endCall(app.db, ids[1]!, { status: 'failed', outcome: 'failed', endedReason: 'provider_failed' });
    await releaseCallSlot(app.db, ids[1]!);
    expect(await slots(ws.workspaceId)).toEqual({ used: 0, held: [] });
    // An ended call never takes a slot again (a late taker after its end would leak one).
    expect(await acquireCallSlot(app.db, ws.workspaceId, ids[1]!)).toBe('ended');
    expect(await slots(ws.workspaceId)).toEqual({ used: 0, held: [] });
  });

  it('takes back a slot held past any call, once, when the cap is reached', async () => {
    const ws = await cappedWorkspace(1);
    const stuck = randomUUID();
    await app.db.query(
      "INSERT INTO calls (id, workspace_id, phone_to, phone_from, slot_taken_at) VALUES ($1, $2, '12125550000', '12125559002', now() - interval '7 hours')",
      [stuck, ws.workspaceId],
    );
    await app.db.query('INSERT INTO call_slot_counts (workspace_id, used) VALUES ($1, 1)', [ws.workspaceId]);
    gate.hold(); // the new call stays in progress until the checks are done
    const res = await post(ws, '0004');
    expect(res.status).toBe(200);
    expect(await slots(ws.workspaceId)).toEqual({ used: 1, held: [res.body.call_id] });
    expect(await reclaimStaleSlots(app.db, ws.workspaceId)).toBe(0);
    // The stale call's run, should it end after all, frees nothing more.
    await releaseCallSlot(app.db, stuck);
    expect((await slots(ws.workspaceId)).used).toBe(1);
    gate.release();
    await callResult(app, res.body.call_id);
    expect(await slots(ws.workspaceId)).toEqual({ used: 0, held: [] });
  });

  it('wakes a journey call waiting for a slot when one is released: one waiting activity, no poll timers', async () => {
    const ws = await cappedWorkspace(1);
    gate.hold(); // the first call stays in progress until the journey call waits for its slot
    const first = await post(ws, '0001');
    expect(first.status).toBe(200);
    const waiting = await journeyCall(ws, '4242');
    await waitingActivity(waiting.workflowId);
    gate.release();
    expect(await callResult(app, first.body.call_id)).toMatchObject({ outcome: 'human' });
    expect(await waiting.result()).toMatchObject({ outcome: 'human' });
    const events = (await waiting.fetchHistory()).events!;
    // No timer before the call is placed (the provider-silence timeouts come after it).
    const placedAt = events.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'placeCall');
    expect(placedAt).toBeGreaterThan(0);
    expect(events.slice(0, placedAt).filter((e) => e.timerStartedEventAttributes)).toEqual([]);
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'waitForCallSlot')).toHaveLength(1);
    expect(events.find((e) => e.markerRecordedEventAttributes)?.markerRecordedEventAttributes?.markerName).toBe('core_patch');
    expect(await slots(ws.workspaceId)).toEqual({ used: 0, held: [] });
  });

  it('cancels a journey call while it waits for a slot: it ends canceled, taking no slot', async () => {
    const ws = await cappedWorkspace(1);
    const first = await post(ws, '0007');
    const waiting = await journeyCall(ws, '0001');
    await waitingActivity(waiting.workflowId);
    await waiting.cancel();
    expect(await waiting.result()).toMatchObject({ outcome: 'canceled' });
    expect(app.simulator!.ledger.entries.filter((e) => e.callId === waiting.workflowId.slice('call:'.length))).toEqual([]);
    expect((await app.request('POST', '/v1/calls/cancel', { key: ws.apiKey, body: { call_id: first.body.call_id } })).status).toBe(200);
    expect(await callResult(app, first.body.call_id)).toMatchObject({ endedReason: 'canceled' });
    expect(await slots(ws.workspaceId)).toEqual({ used: 0, held: [] });
  });

  it('refuses every call of a workspace whose cap is 0, writing nothing', async () => {
    const ws = await cappedWorkspace(0);
    expect((await post(ws, '0001')).status).toBe(429);
    expect(await app.db.query('SELECT id FROM calls WHERE workspace_id = $1', [ws.workspaceId])).toEqual([]);
    expect(await slots(ws.workspaceId)).toEqual({ used: 0, held: [] });
  });
});

describe('the reclaim of api calls whose workflow never started (reclaimUnstartedCalls)', () => {
  /** An api call admitted and written holding a slot, as POST /v1/agent writes it, whose workflow is never started (the api died). */
  async function orphan(ws: { workspaceId: string; agentId: string }, age: string | null) {
    const id = randomUUID();
    const got = await admitApiCall(app.db, ws.workspaceId, { id, agentId: ws.agentId, phone: phoneEnding('0001') });
    expect(got.ok).toBe(true);
    if (age) await backdate(id, age);
    return id;
  }
  const backdate = (id: string, age: string) => app.db.query('UPDATE calls SET created_at = now() - $2::interval WHERE id = $1', [id, age]);
  const sweep = (workspaceId: string) =>
    app.temporal.client.workflow.execute(reclaimUnstartedCalls, {
      workflowId: `reclaim-test-${randomUUID()}`,
      taskQueue: taskQueue('calls', app.config.TEMPORAL_TASK_QUEUE_PREFIX),
      args: [{ workspaceId }],
    });
  const callIds = async (workspaceId: string) =>
    (await app.db.query<{ id: string }>('SELECT id FROM calls WHERE workspace_id = $1', [workspaceId])).map((r) => r.id).sort();

  it('deletes an orphan older than 10 minutes, its slot freed; leaves younger orphans, placed calls and calls whose run exists', async () => {
    const ws = await callingWorkspace(app);
    const old = await orphan(ws, '11 minutes');
    const young = await orphan(ws, null);
    // Older than Temporal keeps an ended run (the namespace's retention): whether it ever ran cannot be known.
    const ns = await app.temporal.client.workflowService.describeNamespace({ namespace: app.temporal.client.options.namespace });
    const retentionSeconds = Number(ns.config!.workflowExecutionRetentionTtl!.seconds);
    expect(retentionSeconds).toBeGreaterThan(3600);
    const beyondRetention = await orphan(ws, `${retentionSeconds + 3600} seconds`);
    // Placed through the api, still in progress (its callbacks held).
    gate.hold();
    const placed = await post(ws, '0001');
    expect(placed.status).toBe(200);
    await eventually(
      async () => (await app.db.query('SELECT 1 FROM calls WHERE id = $1 AND provider_sid IS NOT NULL', [placed.body.call_id])).length > 0,
      30_000,
      'the call placed',
    );
    await backdate(placed.body.call_id, '11 minutes');
    // Admitted and its run started, on a queue no worker polls (every worker down): never dialled, but its run exists.
    const unpolled = `unpolled-${randomUUID().slice(0, 8)}`;
    const waiting = await placeApiCall({ db: app.db, client: app.temporal.client, taskQueuePrefix: unpolled }, ws.workspaceId, {
      agent: ws.agentId,
      phone: phoneEnding('0001'),
    });
    await backdate(waiting.call_id, '11 minutes');
    const all = [old, young, beyondRetention, placed.body.call_id, waiting.call_id].sort();
    expect(await slots(ws.workspaceId)).toEqual({ used: 5, held: all });

    expect(await sweep(ws.workspaceId)).toEqual({ checked: 2, reclaimed: 1, running: 1, failed: 0 });
    const left = all.filter((id) => id !== old);
    expect(await slots(ws.workspaceId)).toEqual({ used: 4, held: left });
    expect(await callIds(ws.workspaceId)).toEqual(left);

    // A run that ended (here: terminated before it dialled) still exists: its call is left alone too.
    await app.temporal.client.workflow.getHandle(callWorkflowId(waiting.call_id)).terminate('test');
    expect(await sweep(ws.workspaceId)).toEqual({ checked: 1, reclaimed: 0, running: 1, failed: 0 });
    expect(await slots(ws.workspaceId)).toEqual({ used: 4, held: left });
    gate.release();
    expect(await callResult(app, placed.body.call_id)).toMatchObject({ outcome: 'human' });
  });

  it('forgets only a call still unstarted: one dialled meanwhile keeps its row and its slot', async () => {
    const ws = await callingWorkspace(app);
    const dialled = await orphan(ws, null);
    await app.db.query('UPDATE calls SET provider_sid = $2 WHERE id = $1', [dialled, `CA${randomUUID().replace(/-/g, '')}`]);
    expect(await deleteUnstartedCall(app.db, dialled)).toBe(false);
    expect(await slots(ws.workspaceId)).toEqual({ used: 1, held: [dialled] });
    const never = await orphan(ws, null);
    expect(await deleteUnstartedCall(app.db, never)).toBe(true);
    expect(await slots(ws.workspaceId)).toEqual({ used: 1, held: [dialled] });
    expect(await callIds(ws.workspaceId)).toEqual([dialled]);
  });

  it('the schedule: created once per task-queue prefix, every 10 minutes on the calls queue, overlaps skipped', async () => {
    const prefix = `reclaim-${randomUUID().slice(0, 8)}`;
    expect(await ensureReclaimSchedule(app.temporal.client, prefix)).toBe(true);
    expect(await ensureReclaimSchedule(app.temporal.client, prefix)).toBe(false);
    const schedule = app.temporal.client.schedule.getHandle(reclaimScheduleId(prefix));
    try {
      const described = await schedule.describe();
      expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'reclaimUnstartedCalls', taskQueue: taskQueue('calls', prefix) });
      expect(described.action.type === 'startWorkflow' && described.action.args).toEqual([{ olderThanSeconds: 600 }]);
      expect(described.spec.intervals).toMatchObject([{ every: 600_000 }]);
      expect(described.policies.overlap).toBe(ScheduleOverlapPolicy.SKIP);
    } finally {
      await schedule.delete();
    }
  });
});
