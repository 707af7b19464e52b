// The call window on Temporal's time-skipping test server: a call asked for at night waits for the window's opening
// in the lead's (else the workspace's) time zone, dialling nothing until then.
import { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { randomBytes, randomUUID } from 'node:crypto';
import { createActivities } from '../../activities';
import { createDb, type Db } from '../../src/db/pool';
import { createAgent, createPhoneGroup } from '../../src/agents/db/agents';
import { callWithLegs } from '../../src/calls/db/calls';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import { msUntilWindow } from '../../src/schedule/window';
import { createLogger } from '../../src/telemetry/log';
import { callWorkflowId } from '../../src/temporal/ids';
import { taskQueue } from '../../src/temporal/task-queues';
import { startSimulator, type Simulator } from '../../src/telephony/simulator/server';
import { activityBoundary } from '../../worker/activity-errors';
import type { CallResult, OutboundCallInput } from '../../workflows/calls/outbound-call-types';
import { phoneEnding } from '../helpers/calls';
import { testEnv } from '../helpers/env';
import { startTimeSkipping, skipTo } from '../helpers/time-skipping';
import { testConfig } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(60_000);

let env: TestWorkflowEnvironment;
let sim: Simulator;
let db: Db;
let worker: Worker;
let running: Promise<void>;
/** The server-clock instants the window activity measured from, in order (this case's server only). */
let clockReads: number[];
const queue = taskQueue('calls', `tc${randomBytes(4).toString('hex')}`);

const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'calls-time');

beforeAll(async () => {
  sim = await startSimulator({ authToken: 'simulator-auth-token', speed: 20 });
  db = createDb(testEnv('databaseUrl'), { max: 5, logger });
});

// A server of its own for each case: each starts on Monday 01:00 in New York.
beforeEach(async () => {
  env = await startTimeSkipping({ initialTime: '2030-01-07T06:00:00Z' });
  clockReads = [];
  // Nothing answers the callbacks: these calls are to …0007, which the provider never reports on.
  const config = testConfig({ TELEPHONY_BASE_URL: sim.url, TELEPHONY_CALLBACK_BASE_URL: 'http://127.0.0.1:9' });
  const activities = createActivities({ db, logger, config });
  worker = await Worker.create({
    connection: env.nativeConnection,
    dataConverter: env.client.options.dataConverter,
    taskQueue: queue,
    workflowBundle: { codePath: testEnv('bundlePath') },
    activities: {
      ...activities,
      // The activity reads the machine's clock, which the skipped server clock does not move: measured on the server's.
      msUntilCallWindow: async (a: Parameters<typeof activities.msUntilCallWindow>[0]) => {
        const now = await env.currentTimeMs();
        clockReads.push(now);
        return msUntilWindow(now, a.window, a.timeZone);
      },
    },
    interceptors: { activity: [activityBoundary] },
  });
  running = worker.run();
}, 600_000);

afterEach(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

afterAll(async () => {
  await db?.close();
  await sim?.close();
});

const plain = () => new Client({ connection: env.connection, dataConverter: env.client.options.dataConverter });
/** The run's first timer, once started: when (server clock) and for how long. */
const firstTimer = async (workflowId: string) => {
  const history = await plain().workflow.getHandle(workflowId).fetchHistory();
  const event = history.events!.find((e) => e.timerStartedEventAttributes);
  if (!event) return undefined;
  const ms = (d: { seconds?: unknown; nanos?: number | null }) => Number(d.seconds ?? 0) * 1000 + Math.round((d.nanos ?? 0) / 1e6);
  return { startedAt: ms(event.eventTime!), ms: ms(event.timerStartedEventAttributes!.startToFireTimeout!) };
};

it.each([
  { what: 'the default window (08:00 New York)', window: undefined, opens: '2030-01-07T13:00:00Z' },
  { what: "a journey step's window (09:30–10:00, Tuesdays)", window: { start: '09:30', end: '10:00', days: ['tue'] }, opens: '2030-01-08T14:30:00Z' },
])('waits for $what before dialling', async ({ window, opens }) => {
  const ws = await createWorkspace(db, { name: `calls time ${randomBytes(3).toString('hex')}`, timezone: 'America/New_York' });
  const group = await createPhoneGroup(db, ws.id, { name: 'out', numbers: ['12125559002'] });
  const agent = await createAgent(db, ws.id, { name: 'Ava', phoneGroupId: group.id });
  const callId = randomUUID();
  const input: OutboundCallInput = {
    callId,
    workspaceId: ws.id,
    agentId: agent.id,
    to: phoneEnding('0007'),
    waitForSlot: true,
    source: 'journey',
    ...(window ? { window } : {}),
  };
  const handle = await plain().workflow.start('outboundCall', { taskQueue: queue, workflowId: callWorkflowId(callId), args: [input] });

  const timer = await eventually(() => firstTimer(handle.workflowId), 30_000, 'the window timer');
  // It lasts exactly from the activity's reading of the clock to the opening (no budget for how long the worker took
  // between that reading and the timer's start, which a loaded machine can stretch).
  expect(clockReads).toHaveLength(1);
  expect(timer.ms).toBe(Date.parse(opens) - clockReads[0]!);
  expect(timer.startedAt).toBeGreaterThanOrEqual(clockReads[0]!);
  expect(sim.ledger.forCallId(callId)).toBeUndefined();

  await skipTo(env, opens);
  await eventually(async () => sim.ledger.forCallId(callId), 30_000, 'the call to be dialled');
  await handle.cancel();
  expect(await handle.result()).toMatchObject<Partial<CallResult>>({ outcome: 'canceled', status: 'canceled' });
  expect(sim.ledger.entries.filter((e) => e.callId === callId)).toHaveLength(1);
});

// The provider's silence, on the server's clock: the e2e call tests never wait out CALL_PROVIDER_TIMEOUT_SECONDS (a
// few seconds there were a budget a loaded machine could overrun) and end their silent calls by cancelling them.
it('fails a call the provider never reports on once the provider timeout passes (provider_timeout), and frees its slot', async () => {
  const ws = await createWorkspace(db, { name: `calls time ${randomBytes(3).toString('hex')}`, timezone: 'America/New_York' });
  await db.query('UPDATE workspaces SET max_concurrent_calls = 1 WHERE id = $1', [ws.id]);
  const group = await createPhoneGroup(db, ws.id, { name: 'out', numbers: ['12125559002'] });
  const agent = await createAgent(db, ws.id, { name: 'Ava', phoneGroupId: group.id });
  const callId = randomUUID();
  const anyTime = { start: '00:00', end: '23:59', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] };
  const input: OutboundCallInput = {
    callId,
    workspaceId: ws.id,
    agentId: agent.id,
    to: phoneEnding('0007'),
    waitForSlot: true,
    source: 'journey',
    window: anyTime,
  };
  const handle = await plain().workflow.start('outboundCall', { taskQueue: queue, workflowId: callWorkflowId(callId), args: [input] });
  await eventually(async () => sim.ledger.forCallId(callId), 30_000, 'the call to be dialled');
  const slotUsed = () => db.one<{ used: number }>('SELECT used FROM call_slot_counts WHERE workspace_id = $1', [ws.id]);
  expect(await slotUsed()).toEqual({ used: 1 });

  // Awaited through the environment's client: the server skips to the timeout.
  const result = (await env.client.workflow.getHandle(handle.workflowId).result()) as CallResult;
  expect(result).toMatchObject<Partial<CallResult>>({ outcome: 'failed', status: 'failed', endedReason: 'provider_timeout' });
  // The wait for the provider was one timer of CALL_PROVIDER_TIMEOUT_SECONDS (120 s by default), not real seconds.
  const timers = (await plain().workflow.getHandle(handle.workflowId).fetchHistory()).events!.flatMap((e) => e.timerStartedEventAttributes ?? []);
  expect(timers.map((t) => Number(t.startToFireTimeout!.seconds))).toContain(120);
  const [row, ...legs] = (await callWithLegs(db, ws.id, callId))!;
  expect(row).toMatchObject({ status: 'failed', outcome: 'failed', ended_reason: 'provider_timeout', slot_taken_at: null });
  expect(row!.call_end).toEqual(expect.any(String));
  expect(legs).toEqual([]);
  expect(sim.ledger.entries.filter((e) => e.callId === callId)).toHaveLength(1);
  expect(await slotUsed()).toEqual({ used: 0 });
});

// The carrier's callbacks all lost (nothing listens where they go): at the silence timeout the call is read from the
// provider, with its child calls, and ends as the carrier ended it instead of failing provider_timeout.
it('ends a call whose callbacks were lost as the provider reports it once the provider timeout passes, legs included', async () => {
  const ws = await createWorkspace(db, { name: `calls time ${randomBytes(3).toString('hex')}`, timezone: 'America/New_York' });
  const group = await createPhoneGroup(db, ws.id, { name: 'out', numbers: ['12125559002'] });
  const agent = await createAgent(db, ws.id, { name: 'Ava', phoneGroupId: group.id, transferNumber: '18005550100' });
  const callId = randomUUID();
  const anyTime = { start: '00:00', end: '23:59', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] };
  const input: OutboundCallInput = {
    callId,
    workspaceId: ws.id,
    agentId: agent.id,
    to: phoneEnding('0006'),
    waitForSlot: true,
    source: 'journey',
    window: anyTime,
  };
  const handle = await plain().workflow.start('outboundCall', { taskQueue: queue, workflowId: callWorkflowId(callId), args: [input] });
  const entry = await eventually(async () => sim.ledger.forCallId(callId), 30_000, 'the call to be dialled');
  await sim.settled(entry.sid);
  expect(entry.callbacks.every((c) => c.responseStatus === null)).toBe(true);

  const result = (await env.client.workflow.getHandle(handle.workflowId).result()) as CallResult;
  expect(result).toMatchObject<Partial<CallResult>>({ outcome: 'transferred', status: 'completed', legs: 2 });
  const [row, ...legs] = (await callWithLegs(db, ws.id, callId))!;
  expect(row).toMatchObject({ status: 'completed', answered_by: 'human', disposition: 'Completed', provider_sid: entry.sid, slot_taken_at: null });
  expect(legs.map((l) => [l.provider_sid, l.status, l.phone_to])).toEqual(entry.legs.map((l) => [l.sid, l.status, '18005550100']));
  expect(legs.map((l) => l.status)).toEqual(['failed', 'completed']);
  // Placed once.
  expect(sim.ledger.entries.filter((e) => e.callId === callId)).toHaveLength(1);
});
