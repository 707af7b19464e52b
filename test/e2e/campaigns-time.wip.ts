// NOT IN THE SUITE (named .wip.ts so jest does not pick it up): work in progress on issue 26's time-skipping test of
// campaign pacing. What works: the api (status callbacks, POST /v1/campaigns) and workers on the time-skipping server,
// calls through the simulator, and the first checks (a lead inside its window dialled at once; the others' next_at
// exactly 09:00 in their own zones). What blocks it: the test server (1.31.0) leaks time-skipping locks while a
// campaign's calls run (14 after the first call, 8 more after the next: counted by unlocking until the server refused),
// so env.sleep then waits in real time. Unlocking the leaked ones before a skip races: in the moment the count is 0
// the server runs free, and it ran to 2040 (the runs' 10-year timeouts) before the lock was taken again. Not the
// callbacks: with callbacks sent nowhere and the call read from the provider at its silence timeout (skipped to once
// the simulator settled it), that first skip worked, yet the next one hung after the call's end. Suspects left: the
// campaign's condition timer cancelled when a call ends, or the child's completion reaching the parent; neither
// happens in calls-time/journeys-time, which skip fine. Next step: reproduce each alone on the test server.
//
// A campaign's pacing on Temporal's time-skipping test server: per-lead windows in each lead's time zone, the spacing
// of retries (only for retry_on outcomes, up to attempts) and start_at. The api (status callbacks, POST /v1/campaigns)
// and the workers run against the test server; calls go through the carrier simulator in real time.
//
// The server's clock runs at real speed except while a test skips it, and the tests skip only while the campaign sleeps
// on a timer with no call in flight: a skip during a call would jump past the call's provider-silence timer before the
// simulator's callbacks arrive (awaiting a result through env.client would too, which is why nothing here does).
import { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities, type Activities } from '../../activities';
import { msUntilWindow } from '../../src/schedule/window';
import { createLogger } from '../../src/telemetry/log';
import { temporalDataConverter } from '../../src/temporal/client';
import { campaignWorkflowId } from '../../src/temporal/ids';
import { taskQueue } from '../../src/temporal/task-queues';
import { activityBoundary } from '../../worker/activity-errors';
import { callingWorkspace, phoneEnding } from '../helpers/calls';
import { testEnv } from '../helpers/env';
import { startTestApp, type TestApp } from '../helpers/stack';
import { skipTo, startTimeSkipping } from '../helpers/time-skipping';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

let env: TestWorkflowEnvironment;
let app: TestApp;
let workers: Worker[] = [];
let running: Promise<unknown>;
/** Every placeCall by the workers, with the server's clock when it ran (the dial's virtual time). */
const dials: { to: string; at: number }[] = [];
/** Every campaignCallEnded, with the server's clock when it ran. */
const ends: { campaignId: string; position: number; retryAtMs: number | null; at: number }[] = [];

const HOUR = 3_600_000;

beforeAll(async () => {
  // Monday 2030-01-07, 01:00 in New York, 06:00 in London, 15:00 in Tokyo.
  env = await startTimeSkipping({ initialTime: '2030-01-07T06:00:00Z' });
  app = await startTestApp({ simulator: true, config: { TEMPORAL_ADDRESS: env.connection.options.address, TEMPORAL_NAMESPACE: 'default' } });
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'campaigns-time');
  const activities = createActivities({ db: app.db, logger, config: app.config });
  const timed: Activities = {
    ...activities,
    // The call's own window check reads the machine's clock, which the skipped server clock does not move.
    msUntilCallWindow: async (a) => msUntilWindow(await env.currentTimeMs(), a.window, a.timeZone),
    placeCall: async (a) => {
      dials.push({ to: a.to, at: await env.currentTimeMs() });
      return activities.placeCall(a);
    },
    campaignCallEnded: async (c) => {
      ends.push({ campaignId: c.campaignId, position: c.position, retryAtMs: c.retryAtMs, at: await env.currentTimeMs() });
      return activities.campaignCallEnded(c);
    },
  };
  workers = await Promise.all(
    (['journeys', 'calls'] as const).map((kind) =>
      Worker.create({
        connection: env.nativeConnection,
        dataConverter: temporalDataConverter(app.config),
        taskQueue: taskQueue(kind, app.config.TEMPORAL_TASK_QUEUE_PREFIX),
        workflowBundle: { codePath: testEnv('bundlePath') },
        activities: timed,
        interceptors: { activity: [activityBoundary] },
      }),
    ),
  );
  running = Promise.all(workers.map((w) => w.run()));
}, 600_000); // the first run on a machine fetches the test server from Maven Central

afterAll(async () => {
  for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
  await running;
  await app?.close();
  await env?.teardown();
});

type Ws = Awaited<ReturnType<typeof callingWorkspace>>;
const ANY_TIME = { start: '00:00', end: '23:59' };
/** A client that does not unlock time skipping. */
const plain = () => new Client({ connection: env.connection, dataConverter: temporalDataConverter(app.config) });

async function workspace(): Promise<Ws> {
  const ws = await callingWorkspace(app);
  await app.db.query("UPDATE workspaces SET timezone = 'America/New_York' WHERE id = $1", [ws.workspaceId]);
  return ws;
}
async function lead(ws: Ws, phone: string, timezone?: string): Promise<string> {
  const res = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone, ...(timezone ? { timezone } : {}) } });
  expect(res.status).toBe(200);
  return res.body.lead_id;
}
async function campaign(ws: Ws, body: Record<string, unknown>): Promise<{ campaign_id: string; status: string }> {
  const res = await app.request('POST', '/v1/campaigns', { key: ws.apiKey, body: { name: 'Paced', agent: ws.agentId, ...body } });
  expect(res.status).toBe(200);
  return res.body;
}
const view = async (ws: Ws, id: string) => (await app.request('GET', `/v1/campaigns/${id}`, { key: ws.apiKey })).body.campaign;
const dialsTo = (phone: string) => dials.filter((d) => d.to.replace(/^\+/, '') === phone);
const ledgerTo = (phone: string) => app.simulator!.ledger.entries.filter((e) => e.to.replace(/^\+/, '') === phone);
const leadRows = (id: string) =>
  app.db.query<{ position: number; lead_id: string; state: string; outcome: string | null; attempts: number; next_at: Date }>(
    'SELECT position, lead_id, state, outcome, attempts, next_at FROM campaign_leads WHERE campaign_id = $1 ORDER BY position',
    [id],
  );

/**
 * Waits (in real time) until the campaign's run sleeps on a timer with nothing else to do: no activity, call or
 * workflow task pending. Only then may the clock be skipped.
 */
const asleep = (id: string) =>
  eventually(
    async () => {
      const handle = plain().workflow.getHandle(campaignWorkflowId(id));
      const { raw } = await handle.describe();
      if (raw.pendingActivities?.length || raw.pendingChildren?.length || raw.pendingWorkflowTask) return undefined;
      const events = (await handle.fetchHistory()).events!;
      const timers = new Set(events.flatMap((e) => (e.timerStartedEventAttributes ? [e.timerStartedEventAttributes.timerId] : [])));
      for (const e of events) timers.delete(e.timerFiredEventAttributes?.timerId ?? e.timerCanceledEventAttributes?.timerId);
      return timers.size === 1;
    },
    60_000,
    'the campaign asleep on its timer',
  );
const now = () => env.currentTimeMs();

const iso = (ms: number) => new Date(ms).toISOString();

describe('campaign pacing on the time-skipping server', () => {
  // First, and in clock order: the one server's clock only moves forward.
  it("dials a lead inside its own window at once and the others when theirs opens, each in the lead's time zone", async () => {
    const ws = await workspace();
    const tokyo = phoneEnding('0001');
    const york = phoneEnding('0001');
    const london = phoneEnding('0001');
    // 09:00-17:00: open in Tokyo now; opens at 09:00Z in London and 14:00Z in New York (the workspace's zone).
    const ids = [await lead(ws, tokyo, 'Asia/Tokyo'), await lead(ws, york), await lead(ws, london, 'Europe/London')];
    const c = await campaign(ws, { audience: { lead_ids: ids }, window: { start: '09:00', end: '17:00' }, max_concurrent: 1 });
    expect(c.status).toBe('running');

    await eventually(async () => (await view(ws, c.campaign_id)).counts.human === 1, 60_000, 'the Tokyo lead called');
    await asleep(c.campaign_id);
    expect(dialsTo(tokyo)).toHaveLength(1);
    expect(dialsTo(tokyo)[0]!.at).toBeLessThan(Date.parse('2030-01-07T08:00:00Z'));
    const rows = await leadRows(c.campaign_id);
    expect(rows.map((r) => [r.state, r.outcome])).toEqual([
      ['done', 'human'],
      ['waiting', null],
      ['waiting', null],
    ]);
    // Each waits for 09:00 in its own zone, exactly.
    expect(rows.slice(1).map((r) => r.next_at.toISOString())).toEqual(['2030-01-07T14:00:00.000Z', '2030-01-07T09:00:00.000Z']);
    expect((await view(ws, c.campaign_id)).counts).toMatchObject({ waiting_for_window: 2, human: 1, dialing: 0 });

    expect([dialsTo(london), dialsTo(york)]).toEqual([[], []]);
    await skipTo(env, '2030-01-07T09:00:00Z');
    await eventually(async () => (await view(ws, c.campaign_id)).counts.human === 2, 60_000, 'the London lead called');
    expect(dialsTo(london)).toHaveLength(1);
    expect(dialsTo(london)[0]!.at).toBeGreaterThanOrEqual(Date.parse('2030-01-07T09:00:00Z'));
    expect(dialsTo(london)[0]!.at).toBeLessThan(Date.parse('2030-01-07T17:00:00Z'));
    expect(dialsTo(york)).toEqual([]);

    await asleep(c.campaign_id);
    expect(dialsTo(york)).toEqual([]);
    await skipTo(env, '2030-01-07T14:00:00Z');
    await eventually(async () => (await view(ws, c.campaign_id)).status === 'completed', 60_000, 'the campaign to end');
    expect(dialsTo(york)).toHaveLength(1);
    expect(dialsTo(york)[0]!.at).toBeGreaterThanOrEqual(Date.parse('2030-01-07T14:00:00Z'));
    expect(dialsTo(york)[0]!.at).toBeLessThan(Date.parse('2030-01-07T22:00:00Z'));
    expect((await view(ws, c.campaign_id)).counts).toMatchObject({ human: 3, waiting_for_window: 0, pending: 0 });
    for (const p of [tokyo, london, york]) expect(ledgerTo(p)).toHaveLength(1);
  });

  it('calls a no_answer again after the spacing, up to attempts, and no other outcome than retry_on', async () => {
    const ws = await workspace();
    const phones = { no_answer: phoneEnding('0003'), busy: phoneEnding('0004'), voicemail: phoneEnding('0002') };
    const ids = [await lead(ws, phones.no_answer), await lead(ws, phones.busy), await lead(ws, phones.voicemail)];
    const c = await campaign(ws, {
      audience: { lead_ids: ids },
      window: ANY_TIME,
      max_concurrent: 3,
      retries: { attempts: 2, spacing: 'PT2H' },
      retry_on: ['no_answer'],
    });
    const { position } = await eventually(async () => (await leadRows(c.campaign_id)).find((r) => r.lead_id === ids[0]), 60_000, 'the audience snapshot');
    const endsOf = () => ends.filter((e) => e.campaignId === c.campaign_id && e.position === position);

    for (let attempt = 1; attempt <= 2; attempt++) {
      await eventually(async () => endsOf().length === attempt, 60_000, `call ${attempt} of the no_answer lead to end`);
      await asleep(c.campaign_id);
      const end = endsOf().at(-1)!;
      const dial = dialsTo(phones.no_answer)[attempt - 1]!;
      // Due again two hours after the call ended (the run's clock at its end: after the dial, before the record).
      expect(end.retryAtMs! - 2 * HOUR).toBeGreaterThanOrEqual(dial.at);
      expect(end.retryAtMs! - 2 * HOUR).toBeLessThanOrEqual(end.at);
      expect((await leadRows(c.campaign_id)).find((r) => r.position === position)).toMatchObject({
        state: 'pending',
        attempts: attempt,
        next_at: new Date(end.retryAtMs!),
      });

      expect(dialsTo(phones.no_answer)).toHaveLength(attempt);
      await skipTo(env, iso(end.retryAtMs!));
      await eventually(async () => dialsTo(phones.no_answer).length === attempt + 1, 60_000, `call ${attempt + 1} of the no_answer lead`);
      expect(dialsTo(phones.no_answer)[attempt]!.at).toBeGreaterThanOrEqual(end.retryAtMs!);
    }

    const done = await eventually(
      async () => ((await view(ws, c.campaign_id)).status === 'completed' ? view(ws, c.campaign_id) : undefined),
      60_000,
      'the end',
    );
    expect(done.counts).toMatchObject({ no_answer: 1, busy: 1, voicemail: 1, pending: 0, dialing: 0 });
    // Three calls at most (the first and two retries); busy is not in retry_on, voicemail is no retry outcome.
    expect(Object.values(phones).map((p) => ledgerTo(p).length)).toEqual([3, 1, 1]);
    expect((await leadRows(c.campaign_id)).map((r) => [r.outcome, r.attempts])).toEqual([
      ['no_answer', 3],
      ['busy', 1],
      ['voicemail', 1],
    ]);
  });

  it('dials nothing before start_at and starts calling then', async () => {
    const ws = await workspace();
    const phone = phoneEnding('0001');
    const id = await lead(ws, phone);
    const startAt = Math.ceil((await now()) / 60_000) * 60_000 + 3 * HOUR;
    const c = await campaign(ws, { audience: { lead_ids: [id] }, window: ANY_TIME, start_at: iso(startAt) });
    expect(c.status).toBe('scheduled');
    await asleep(c.campaign_id);
    expect((await view(ws, c.campaign_id)).status).toBe('scheduled');

    expect(dialsTo(phone)).toEqual([]);
    expect(await view(ws, c.campaign_id)).toMatchObject({ status: 'scheduled', counts: { pending: 1 } });
    await skipTo(env, iso(startAt));
    await eventually(async () => (await view(ws, c.campaign_id)).status === 'completed', 60_000, 'the campaign to end');
    expect(dialsTo(phone)).toHaveLength(1);
    expect(dialsTo(phone)[0]!.at).toBeGreaterThanOrEqual(startAt);
    expect(ledgerTo(phone)).toHaveLength(1);
  });
});
