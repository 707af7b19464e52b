// A campaign's time rules on Temporal's time-skipping test server: start_at, each lead's window in its own time zone,
// the spacing of retries (only for retry_on outcomes, up to attempts) and calls_per_minute. The api (POST /v1/campaigns,
// the carrier's status callbacks) and the workers run against the test server; calls go through the carrier simulator in
// real time. The server's clock runs at real speed except while a test skips it, and a test skips only once the campaign
// sleeps on a timer with nothing under it open (test/helpers/time-campaigns.ts). Dial times are the server's own record
// (each call's placeCall, on its clock).
import { campaignWorkflowId } from '../../src/temporal/ids';
import { callingWorkspace, phoneEnding } from '../helpers/calls';
import { startCampaignTimeStack, type CampaignTimeStack } from '../helpers/time-campaigns';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(240_000);

let stack: CampaignTimeStack;
// A server of its own for each case, its clock starting on Monday 2030-01-07 06:00Z: 01:00 in New York, 06:00 in
// London, 15:00 in Tokyo.
const T0 = '2030-01-07T06:00:00Z';
beforeEach(async () => {
  stack = await startCampaignTimeStack(T0);
}, 600_000); // the first run on a machine fetches the test server from Maven Central
afterEach(async () => {
  await stack?.close();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (iso: string) => Date.parse(iso);
const ANY_TIME = { start: '00:00', end: '23:59' };
type Ws = Awaited<ReturnType<typeof callingWorkspace>>;

async function workspace(): Promise<Ws> {
  const ws = await callingWorkspace(stack.app);
  await stack.app.db.query("UPDATE workspaces SET timezone = 'America/New_York' WHERE id = $1", [ws.workspaceId]);
  return ws;
}
async function lead(ws: Ws, phone: string, timezone?: string): Promise<string> {
  const res = await stack.app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone, ...(timezone ? { timezone } : {}) } });
  expect(res.status).toBe(200);
  return res.body.lead_id;
}
async function campaign(ws: Ws, body: Record<string, unknown>): Promise<{ campaign_id: string; status: string }> {
  const res = await stack.app.request('POST', '/v1/campaigns', { key: ws.apiKey, body: { name: 'Timed', agent: ws.agentId, ...body } });
  expect(res.status).toBe(200);
  return res.body;
}
/** n different phones ending in last4 (the carrier simulator's outcome rule; phoneEnding never repeats one). */
const phones = (n: number, last4: string): string[] => Array.from({ length: n }, () => phoneEnding(last4));
const view = async (ws: Ws, id: string) => (await stack.app.request('GET', `/v1/campaigns/${id}`, { key: ws.apiKey })).body.campaign;
/** Each phone's dial instants (server clock), in call order. */
const dials = async (id: string): Promise<Record<string, number[]>> => {
  const out: Record<string, number[]> = {};
  for (const c of await stack.calls(id)) if (c.dialledAt !== null) (out[c.phone] ??= []).push(c.dialledAt);
  return out;
};
const dialsOf = async (id: string, phone: string) => (await dials(id))[phone] ?? [];
/** Waits (real time) until the phone was dialled more than n times; its dial instants. */
const dialledMoreThan = (id: string, phone: string, n: number) =>
  eventually(
    async () => {
      const got = await dialsOf(id, phone);
      return got.length > n ? got : undefined;
    },
    60_000,
    `dial ${n + 1} of a lead`,
  );
const ledgerCount = (phone: string) => stack.app.simulator!.ledger.entries.filter((e) => e.to.replace(/^\+/, '') === phone).length;
const leadRows = (id: string) =>
  stack.app.db.query<{ lead_id: string; state: string; outcome: string | null; attempts: number; next_at: Date }>(
    'SELECT lead_id, state, outcome, attempts, next_at FROM campaign_leads WHERE campaign_id = $1 ORDER BY position',
    [id],
  );
const ended = (ws: Ws, id: string) =>
  eventually(async () => ((await view(ws, id)).status === 'completed' ? view(ws, id) : undefined), 60_000, 'the campaign to complete');

it('dials nothing before start_at, days ahead, and starts calling at it', async () => {
  const ws = await workspace();
  const [human, voicemail] = [phoneEnding('0001'), phoneEnding('0002')];
  const ids = [await lead(ws, human), await lead(ws, voicemail)];
  const startAt = '2030-01-09T15:00:00Z';
  const c = await campaign(ws, { audience: { lead_ids: ids }, window: ANY_TIME, start_at: startAt });
  expect(c.status).toBe('scheduled');

  await stack.settle(c.campaign_id);
  expect(await view(ws, c.campaign_id)).toMatchObject({ status: 'scheduled', counts: { pending: 2, dialing: 0 } });
  await stack.skipTo(c.campaign_id, at(startAt) - MINUTE);
  await stack.settle(c.campaign_id);
  expect(await view(ws, c.campaign_id)).toMatchObject({ status: 'scheduled', counts: { pending: 2, dialing: 0 } });
  expect(await dials(c.campaign_id)).toEqual({});

  await stack.skipTo(c.campaign_id, startAt);
  const done = await ended(ws, c.campaign_id);
  expect(done.counts).toMatchObject({ human: 1, voicemail: 1, pending: 0 });
  const got = await dials(c.campaign_id);
  for (const p of [human, voicemail]) {
    expect(got[p]).toHaveLength(1);
    expect(got[p]![0]).toBeGreaterThanOrEqual(at(startAt));
    expect(ledgerCount(p)).toBe(1);
  }
});

it("calls a lead inside its window while the ones before it wait, and dials each of those at its window's opening in its own time zone", async () => {
  const ws = await workspace();
  const [london, york, tokyo] = phones(3, '0001') as [string, string, string];
  // 09:00-17:00: open in Tokyo at T0; it opens at 09:00Z in London and at 14:00Z in New York (the workspace's zone: this
  // lead has none). Tokyo is last in the audience and one call at a time is allowed: the waiting ones hold no place.
  const ids = [await lead(ws, london, 'Europe/London'), await lead(ws, york), await lead(ws, tokyo, 'Asia/Tokyo')];
  const c = await campaign(ws, { audience: { lead_ids: ids }, window: { start: '09:00', end: '17:00' }, max_concurrent: 1 });
  expect(c.status).toBe('running');

  await stack.settle(c.campaign_id);
  const first = await dials(c.campaign_id);
  expect(Object.keys(first)).toEqual([tokyo]);
  expect(first[tokyo]![0]).toBeGreaterThanOrEqual(at(T0));
  expect(first[tokyo]![0]).toBeLessThan(at('2030-01-07T08:59:00Z'));
  const rows = await leadRows(c.campaign_id);
  expect(rows.map((r) => [r.state, r.outcome])).toEqual([
    ['waiting', null],
    ['waiting', null],
    ['done', 'human'],
  ]);
  expect(rows.slice(0, 2).map((r) => r.next_at.toISOString())).toEqual(['2030-01-07T09:00:00.000Z', '2030-01-07T14:00:00.000Z']);
  expect((await view(ws, c.campaign_id)).counts).toMatchObject({ waiting_for_window: 2, human: 1, dialing: 0 });

  await stack.skipTo(c.campaign_id, '2030-01-07T08:59:00Z');
  await stack.settle(c.campaign_id);
  expect(Object.keys(await dials(c.campaign_id))).toEqual([tokyo]);
  await stack.skipTo(c.campaign_id, '2030-01-07T09:00:00Z');
  const [londonAt] = await dialledMoreThan(c.campaign_id, london, 0);
  expect(londonAt).toBeGreaterThanOrEqual(at('2030-01-07T09:00:00Z'));
  expect(londonAt).toBeLessThan(at('2030-01-07T13:59:00Z'));

  await stack.skipTo(c.campaign_id, '2030-01-07T13:59:00Z');
  await stack.settle(c.campaign_id);
  expect(await dialsOf(c.campaign_id, york)).toEqual([]);
  await stack.skipTo(c.campaign_id, '2030-01-07T14:00:00Z');
  const done = await ended(ws, c.campaign_id);
  expect(done.counts).toMatchObject({ human: 3, waiting_for_window: 0, pending: 0 });
  const [yorkAt] = await dialsOf(c.campaign_id, york);
  expect(yorkAt).toBeGreaterThanOrEqual(at('2030-01-07T14:00:00Z'));
  for (const p of [london, york, tokyo]) expect(ledgerCount(p)).toBe(1);
});

it('calls a no_answer again after the spacing, up to attempts, and an outcome outside retry_on never again', async () => {
  const ws = await workspace();
  const to = { no_answer: phoneEnding('0003'), busy: phoneEnding('0004'), voicemail: phoneEnding('0002') };
  const ids = [await lead(ws, to.no_answer), await lead(ws, to.busy), await lead(ws, to.voicemail)];
  // busy is retried by default; retry_on leaves it out.
  const c = await campaign(ws, {
    audience: { lead_ids: ids },
    window: ANY_TIME,
    max_concurrent: 3,
    retries: { attempts: 2, spacing: 'PT2H' },
    retry_on: ['no_answer'],
  });

  for (let attempt = 1; attempt <= 2; attempt++) {
    await stack.settle(c.campaign_id);
    const calls = (await stack.calls(c.campaign_id)).filter((k) => k.phone === to.no_answer);
    const now = await stack.env.currentTimeMs();
    expect(calls).toHaveLength(attempt);
    const row = (await leadRows(c.campaign_id))[0]!;
    expect(row).toMatchObject({ state: 'pending', attempts: attempt });
    // Due again two hours after the call ended: the run's clock then lies between the call's dial and now.
    const due = row.next_at.getTime();
    expect(due - 2 * HOUR).toBeGreaterThanOrEqual(calls[attempt - 1]!.dialledAt!);
    expect(due - 2 * HOUR).toBeLessThanOrEqual(now);

    await stack.skipTo(c.campaign_id, due - MINUTE);
    await stack.settle(c.campaign_id);
    expect(await dialsOf(c.campaign_id, to.no_answer)).toHaveLength(attempt);
    await stack.skipTo(c.campaign_id, due);
    const again = await dialledMoreThan(c.campaign_id, to.no_answer, attempt);
    expect(again[attempt]).toBeGreaterThanOrEqual(due);
  }

  await stack.settle(c.campaign_id);
  const done = await view(ws, c.campaign_id);
  expect(done).toMatchObject({ status: 'completed', counts: { no_answer: 1, busy: 1, voicemail: 1, pending: 0, dialing: 0 } });
  // The first call and two retries; busy is not in retry_on, voicemail is no retry outcome.
  expect(Object.values(to).map(ledgerCount)).toEqual([3, 1, 1]);
  expect((await leadRows(c.campaign_id)).map((r) => [r.outcome, r.attempts])).toEqual([
    ['no_answer', 3],
    ['busy', 1],
    ['voicemail', 1],
  ]);
});

// The last call in flight ends while the run looks for due leads, leaving it out as in flight: that look finds none
// left, yet the lead is due for a retry. The look is held here until that call's end is recorded, to make it so.
it('calls a lead again whose call ended while the run looked for due leads, instead of completing without it', async () => {
  const ws = await workspace();
  const to = { busy: phoneEnding('0004'), no_answer: phoneEnding('0003') };
  const ids = [await lead(ws, to.busy), await lead(ws, to.no_answer)];
  const held: number[][] = [];
  stack.beforeDueLeads = async (a) => {
    if (!a.busy.length) return;
    held.push(a.busy);
    await eventually(
      async () => {
        const dialing = await stack.app.db.query("SELECT 1 FROM campaign_leads WHERE campaign_id = $1 AND position = ANY ($2::int[]) AND state = 'dialing'", [
          a.campaignId,
          a.busy,
        ]);
        if (dialing.length) return false;
        const { raw } = await stack.client.workflow.getHandle(campaignWorkflowId(a.campaignId)).describe();
        return (raw.pendingActivities ?? []).every((p) => p.activityType?.name === 'campaignDueLeads');
      },
      60_000,
      'the calls left out to end',
    );
  };
  const c = await campaign(ws, {
    audience: { lead_ids: ids },
    window: ANY_TIME,
    max_concurrent: 2,
    retries: { attempts: 1, spacing: 'PT1H' },
    retry_on: ['no_answer'],
  });

  await stack.settle(c.campaign_id);
  // The busy call ended first; the look after it left the no_answer one out while it rang.
  expect(held[0]).toEqual([2]);
  const row = (await leadRows(c.campaign_id))[1]!;
  expect(row).toMatchObject({ state: 'pending', attempts: 1 });
  expect((await view(ws, c.campaign_id)).status).toBe('running');
  await stack.skipTo(c.campaign_id, row.next_at.getTime());
  const done = await ended(ws, c.campaign_id);
  expect(done.counts).toMatchObject({ busy: 1, no_answer: 1, canceled: 0 });
  expect([ledgerCount(to.busy), ledgerCount(to.no_answer)]).toEqual([1, 2]);
});

it('starts calls one calls_per_minute gap apart', async () => {
  const ws = await workspace();
  const leads = phones(3, '0001');
  const ids = [];
  for (const p of leads) ids.push(await lead(ws, p));
  const c = await campaign(ws, { audience: { lead_ids: ids }, window: ANY_TIME, max_concurrent: 3, calls_per_minute: 1 });
  // The run's start: its first call starts at or after it, each next one a minute after the one before.
  const startedAt = (await stack.client.workflow.getHandle(campaignWorkflowId(c.campaign_id)).describe()).startTime.getTime();

  for (let k = 0; k < leads.length; k++) {
    if (k > 0) {
      await stack.skipTo(c.campaign_id, startedAt + k * MINUTE - 1000);
      await stack.settle(c.campaign_id);
      expect(Object.keys(await dials(c.campaign_id))).toHaveLength(k);
      await stack.skipTo(c.campaign_id, startedAt + k * MINUTE);
    }
    const [dialled] = await dialledMoreThan(c.campaign_id, leads[k]!, 0);
    // Inside its minute: at or after its slot, before the next (the clock is skipped there next; it must not be past it).
    expect(dialled).toBeGreaterThanOrEqual(startedAt + k * MINUTE);
    expect(dialled).toBeLessThan(startedAt + (k + 1) * MINUTE - 1000);
  }
  // The run looks for more leads at the next slot only.
  await stack.skipTo(c.campaign_id, startedAt + leads.length * MINUTE);
  expect((await ended(ws, c.campaign_id)).counts).toMatchObject({ human: 3 });
  for (const p of leads) expect(ledgerCount(p)).toBe(1);
});
