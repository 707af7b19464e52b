// Journeys over days, on Temporal's time-skipping test server: the clock starts at a fixed instant and jumps to each
// timer, so nothing here waits in real time or depends on the machine's clock or time zone.
import { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { addTag, findLeadById } from '../../src/leads/db/leads';
import { webhookSecrets } from '../../src/webhooks/db/webhook-secrets';
import type { JourneyState, StepRecord } from '../../workflows/journeys/journey-messages';
import { everyStepKind } from '../helpers/journeys';
import { skipTo, startTimeSkipping } from '../helpers/time-skipping';
import { startTimeStack, type Enrolled, type TimeStack } from '../helpers/time-journeys';
import { eventually, verifySignature, WebhookReceiver } from '../helpers/webhook-receiver';

let env: TestWorkflowEnvironment;
let stack: TimeStack;
const receiver = new WebhookReceiver();
let hooks: string;

beforeAll(async () => {
  env = await startTimeSkipping({ initialTime: '2030-01-07T00:00:00Z' });
  stack = await startTimeStack(env, { config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
  hooks = await receiver.start();
}, 600_000); // the first run on a machine fetches the test server from Maven Central

afterAll(async () => {
  await receiver.close();
  await stack?.close();
  await env?.teardown();
});

/**
 * Awaiting a result through the environment's client lets the server skip time, to each timer and then on to the run's
 * 10-year timeout once the run is done: fine last, not before a test that needs a fixed date. Those skip explicitly.
 */
const result = (e: Enrolled) => env.client.workflow.getHandle(e.workflowId).result() as Promise<JourneyState>;
/** A client that does not unlock time skipping. */
const plain = () => new Client({ connection: env.connection, dataConverter: env.client.options.dataConverter });
/** Waits (in real time, for the worker) until the run has started the timer of its wait. */
const timerStarted = (e: Enrolled) =>
  eventually(
    async () => (await plain().workflow.getHandle(e.workflowId).fetchHistory()).events!.some((ev) => ev.timerStartedEventAttributes),
    30_000,
    'the wait timer',
  );
const at = (history: StepRecord[], stepId: string) => Date.parse(history.find((h) => h.step_id === stepId)!.at);
const rows = (e: Enrolled) =>
  stack.db.query<{ id: string; status: string; current_step: string; run_id: string }>(
    'SELECT id, status, current_step, run_id FROM enrollments WHERE lead_id = $1 ORDER BY created_at',
    [e.leadId],
  );
const tags = async (e: Enrolled) => (await findLeadById(stack.db, e.workspaceId, e.leadId))!.tags;
const steps = (s: JourneyState) => s.history.map((h) => `${h.step_id}:${h.outcome}${h.detail ? ` (${h.detail})` : ''}`);

const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri'];
const localTime = (instant: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(instant);

// First, and in clock order: the one server's clock only moves forward. Expected instants worked out by hand from the tz rules
// (US: second Sunday of March, first Sunday of November at 02:00; EU: last Sunday of March and October at 01:00 UTC).
describe.each([
  {
    what: 'New York, over the March change (EST → EDT)',
    from: '2030-03-08T23:00:00Z',
    workspace: 'America/New_York',
    lead: undefined,
    days: weekdays,
    start: '09:00',
    end: '17:00',
    opens: '2030-03-11T13:00:00Z',
    local: 'Mon, 09:00 EDT',
  },
  {
    what: "Berlin (the lead's zone), over the March change",
    from: '2030-03-30T11:00:00Z',
    workspace: 'America/New_York',
    lead: 'Europe/Berlin',
    days: weekdays,
    start: '08:00',
    end: '12:00',
    opens: '2030-04-01T06:00:00Z',
    local: 'Mon, 08:00 GMT+2',
  },
  {
    what: 'Berlin, over the October change',
    from: '2030-10-25T18:00:00Z',
    workspace: 'Europe/Berlin',
    lead: undefined,
    days: weekdays,
    start: '08:00',
    end: '12:00',
    opens: '2030-10-28T07:00:00Z',
    local: 'Mon, 08:00 GMT+1',
  },
  {
    what: 'New York, over the November change (EDT → EST)',
    from: '2030-11-01T22:00:00Z',
    workspace: 'America/New_York',
    lead: undefined,
    days: weekdays,
    start: '09:00',
    end: '17:00',
    opens: '2030-11-04T14:00:00Z',
    local: 'Mon, 09:00 EST',
  },
  // 02:30 does not exist on that night in New York: the window opens when the clock jumps past it, an hour on.
  {
    what: 'New York, a window starting inside the skipped hour',
    from: '2031-03-08T17:00:00Z',
    workspace: 'America/New_York',
    lead: undefined,
    days: ['sun'],
    start: '02:30',
    end: '04:00',
    opens: '2031-03-09T07:00:00Z',
    local: 'Sun, 03:00 EDT',
  },
  // 01:30 happens twice that night: the first one counts.
  {
    what: 'New York, a window starting inside the repeated hour',
    from: '2031-11-01T16:00:00Z',
    workspace: 'America/New_York',
    lead: undefined,
    days: ['sun'],
    start: '01:30',
    end: '01:45',
    opens: '2031-11-02T05:30:00Z',
    local: 'Sun, 01:30 EDT',
  },
])('a weekday window in $what', ({ from, workspace, lead, days, start, end, opens, local }) => {
  it(`starting ${from}, opens at ${opens}`, async () => {
    await skipTo(env, from);
    const run = await stack.enroll(
      [
        { id: 'office', kind: 'wait', until: { days, start, end } },
        { id: 'inside', kind: 'tag', tag: 'in_window' },
        { id: 'stop', kind: 'end' },
      ],
      { timezone: workspace, leadTimezone: lead },
    );
    await timerStarted(run);
    await skipTo(env, new Date(Date.parse(opens) + 60_000).toISOString());
    const done = (await plain().workflow.getHandle(run.workflowId).result()) as JourneyState;
    const opened = at(done.history, 'office');
    expect(opened).toBeGreaterThanOrEqual(Date.parse(opens));
    expect(opened).toBeLessThan(Date.parse(opens) + 60_000);
    expect(localTime(opened, lead ?? workspace)).toBe(local);
    expect(done.history.map((h) => h.step_id)).toEqual(['office', 'inside', 'stop']);
  });
});

describe('a journey on the time-skipping server', () => {
  it('waits P3D without waiting three days', async () => {
    const run = await stack.enroll([
      { id: 'before', kind: 'tag', tag: 'before' },
      { id: 'nap', kind: 'wait', duration: 'P3D' },
      { id: 'after', kind: 'tag', tag: 'after' },
      { id: 'stop', kind: 'end' },
    ]);
    const end = await result(run);
    expect(end.history.map((h) => `${h.step_id}:${h.outcome}`)).toEqual(['before:done', 'nap:done', 'after:done', 'stop:done']);
    const waited = at(end.history, 'nap') - at(end.history, 'before');
    expect(waited).toBeGreaterThanOrEqual(3 * 86_400_000);
    expect(waited).toBeLessThan(3 * 86_400_000 + 60_000);
    expect(await tags(run)).toEqual(['before', 'after']);
    expect(await rows(run)).toMatchObject([{ status: 'completed', current_step: 'stop' }]);
  });

  it('branches after a wait on what the lead became meanwhile', async () => {
    const journey = [
      { id: 'start', kind: 'tag', tag: 'started' },
      { id: 'pause', kind: 'wait', duration: 'PT1S' },
      { id: 'which', kind: 'branch', cases: [{ when: { has_tag: 'vip' }, goto: 'vip' }], else: 'standard' },
      { id: 'standard', kind: 'tag', tag: 'standard_path' },
      { id: 'skip_vip', kind: 'goto', target: 'done' },
      { id: 'vip', kind: 'tag', tag: 'vip_path' },
      { id: 'done', kind: 'end' },
    ];
    const plainRun = await stack.enroll(journey);
    const vipRun = await stack.enroll(journey);
    await timerStarted(vipRun);
    await addTag(stack.db, vipRun.workspaceId, vipRun.leadId, 'vip'); // during the wait: the branch after it sees the tag
    const [plainEnd, vipEnd] = [await result(plainRun), await result(vipRun)];
    expect(steps(plainEnd)).toEqual(['start:done', 'pause:done', 'which:done (goto standard)', 'standard:done', 'skip_vip:done (goto done)', 'done:done']);
    expect(steps(vipEnd)).toEqual(['start:done', 'pause:done', 'which:done (goto vip)', 'vip:done', 'done:done']);
    for (const end of [plainEnd, vipEnd]) {
      const waited = at(end.history, 'pause') - at(end.history, 'start');
      expect(waited).toBeGreaterThanOrEqual(1000);
      expect(waited).toBeLessThan(1000 + 60_000);
    }
    expect(await tags(plainRun)).toEqual(['started', 'standard_path']);
    expect(await tags(vipRun)).toEqual(['started', 'vip', 'vip_path']);
    expect(await rows(plainRun)).toMatchObject([{ status: 'completed', current_step: 'done' }]);
  });

  it('runs every step kind in one journey', async () => {
    const run = await stack.enroll(everyStepKind(hooks));
    const end = await result(run);
    expect(steps(end).map((s) => s.replace(/ \(HTTP 200 evt_\w+\)/, ''))).toEqual([
      'hello:done',
      'nap:done',
      'set:done',
      'notify:delivered',
      'delivered:done (goto acme)',
      'acme:done (goto ring)',
      'ring:failed (unknown_agent: the workspace has no agent 6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11)',
      `crm:failed (not_connected: HubSpot is not connected for this workspace: connect it first (npx switchboard connection create --workspace ${run.workspaceId} --integration hubspot --kind oauth2 --secret access_token=…))`,
      'bye:done',
      'jump:done (goto stop)',
      'stop:done',
    ]);
    expect(receiver.on('/fixture').map((d) => JSON.parse(d.body))).toEqual([{ company: 'Acme' }]);
  });

  it('retries a webhook after a 500 (after the retry backoff) with the same event id, signed each time', async () => {
    receiver.script('/retried', [500, 200]);
    const run = await stack.enroll([
      { id: 'notify', kind: 'webhook', url: `${hooks}/retried`, payload: { lead: '{{lead_id}}', event: '{{event_id}}' } },
      { id: 'stop', kind: 'end' },
    ]);
    const end = await result(run);
    expect(steps(end).map((s) => s.replace(/ \(.*/, ''))).toEqual(['notify:delivered', 'stop:done']);
    const tries = receiver.on('/retried');
    expect(tries.map((d) => d.status)).toEqual([500, 200]);
    const { current } = (await webhookSecrets(stack.db, run.workspaceId))!;
    for (const d of tries) expect(verifySignature(current, d.signature, d.body)).toBe(true);
    expect(tries[1]!.eventId).toBe(tries[0]!.eventId);
    expect(JSON.parse(tries[1]!.body)).toEqual({ lead: run.leadId, event: tries[0]!.eventId });
    // The receiver processes the event once: its ledger has two deliveries of one event id.
    expect(receiver.ledger('/retried')).toEqual(new Map([[tries[0]!.eventId, 2]]));
  });

  it('fails the enrollment when its lead is deleted during a wait', async () => {
    const run = await stack.enroll([
      { id: 'w', kind: 'wait', duration: 'PT1S' },
      { id: 'tag', kind: 'tag', tag: 'x' },
    ]);
    await timerStarted(run);
    await stack.db.query('DELETE FROM leads WHERE id = $1', [run.leadId]);
    expect(await result(run)).toMatchObject({ status: 'failed', current_step: 'tag' });
  });

  it('continues as new after a wait and carries the enrollment across runs', async () => {
    const run = await stack.enroll(
      [
        { id: 'one', kind: 'tag', tag: 'one' },
        { id: 'day', kind: 'wait', duration: 'P1D' },
        { id: 'two', kind: 'tag', tag: 'two' },
        { id: 'half', kind: 'wait', duration: 'PT12H' },
        { id: 'three', kind: 'tag', tag: 'three' },
        { id: 'stop', kind: 'end' },
      ],
      { maxStepsPerRun: 2 },
    );
    const end = await result(run);
    expect(end.history.map((h) => `${h.seq}:${h.step_id}`)).toEqual(['1:one', '2:day', '3:two', '4:half', '5:three', '6:stop']);
    expect(at(end.history, 'half') - at(end.history, 'one')).toBeGreaterThanOrEqual(36 * 3_600_000);

    const first = await env.client.workflow.getHandle(run.workflowId, run.firstRunId).fetchHistory();
    expect(first.events!.at(-1)!.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
    const last = await env.client.workflow.getHandle(run.workflowId).describe();
    expect(last.runId).not.toBe(run.firstRunId);
    // One enrollment across the three runs, pointing at the run that finished it.
    expect(await rows(run)).toEqual([{ id: end.enrollment_id, status: 'completed', current_step: 'stop', run_id: last.runId }]);
    expect(await tags(run)).toEqual(['one', 'two', 'three']);
  });
});
