// POST /v1/agent judges a call on its agent's facts as last read, and its one statement writes the call only when those
// are still the facts: a lead's own zone, and a window, zone or region changed since the agent's last call, are obeyed.
import { callResult, callingWorkspace, phoneEnding, zoneInDaytime } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(180_000);

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ workers: true, simulator: { speed: 20 } });
});
afterAll(async () => {
  await app.close();
});

/** A time zone where it is now between 01:00 and 04:59 (outside the default window, 08:00–21:00). */
function zoneAtNight(now = new Date()): string {
  const hour = (zone: string) => Number(new Intl.DateTimeFormat('en-US', { hour: 'numeric', hourCycle: 'h23', timeZone: zone }).format(now));
  const zone = Intl.supportedValuesOf('timeZone').find((z) => hour(z) >= 1 && hour(z) < 5);
  if (!zone) throw new Error('no time zone is at night now');
  return zone;
}

type Caller = Awaited<ReturnType<typeof callingWorkspace>>;
const call = (ws: Caller, body: Record<string, unknown>) => app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: ws.agentId, ...body } });
const callsTo = (ws: Caller, phone: string) => app.db.query('SELECT id FROM calls WHERE workspace_id = $1 AND phone_to = $2', [ws.workspaceId, phone]);
const addLead = (ws: Caller, phone: string, timezone: string) =>
  app.db.query('INSERT INTO leads (id, workspace_id, phone, timezone) VALUES (gen_random_uuid(), $1, $2, $3)', [ws.workspaceId, phone, timezone]);

/** Places a call that must be placed, and waits for it to end. */
async function placed(ws: Caller, phone: string) {
  const res = await call(ws, { phone });
  expect(res.status).toBe(200);
  await callResult(app, res.body.call_id);
  return res.body as { call_id: string; to: string; from: string };
}

describe('POST /v1/agent on facts that differ from the last call', () => {
  it("judges the window in the lead's zone, else the workspace's", async () => {
    const day = await callingWorkspace(app);
    await placed(day, phoneEnding('0003')); // the agent's facts are now known to the api
    const sleeper = phoneEnding('0001');
    const night = zoneAtNight();
    await addLead(day, sleeper, night);
    const refused = await call(day, { phone: sleeper });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(`Outside the call window (08:00–21:00 ${night})`);
    expect(await callsTo(day, sleeper)).toEqual([]);

    // A workspace at night calls its lead who is in daytime, and no one else.
    const late = await callingWorkspace(app);
    await app.db.query('UPDATE workspaces SET timezone = $2 WHERE id = $1', [late.workspaceId, night]);
    const awake = phoneEnding('0003');
    await addLead(late, awake, zoneInDaytime());
    const ok = await placed(late, awake);
    const [row] = await app.db.query<{ lead_id: string | null }>('SELECT lead_id FROM calls WHERE id = $1', [ok.call_id]);
    expect(row!.lead_id).toEqual(expect.any(String));
    const other = phoneEnding('0003');
    expect((await call(late, { phone: other })).status).toBe(409);
    expect(await callsTo(late, other)).toEqual([]);
  });

  it("obeys a window, a zone and a region changed since the agent's last call", async () => {
    const ws = await callingWorkspace(app);
    await placed(ws, phoneEnding('0003'));
    const today = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: ws.timezone }).format(new Date()).toLowerCase();
    const notToday = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].find((d) => d !== today)!;
    await app.db.query('UPDATE agents SET call_window = $2 WHERE id = $1', [ws.agentId, JSON.stringify({ start: '08:00', end: '21:00', days: [notToday] })]);
    const phone = phoneEnding('0003');
    expect((await call(ws, { phone })).status).toBe(409);
    await app.db.query('UPDATE agents SET call_window = NULL WHERE id = $1', [ws.agentId]);
    await placed(ws, phone);

    await app.db.query('UPDATE workspaces SET timezone = $2 WHERE id = $1', [ws.workspaceId, zoneAtNight()]);
    const late = phoneEnding('0003');
    expect((await call(ws, { phone: late })).status).toBe(409);
    expect(await callsTo(ws, late)).toEqual([]);
    await app.db.query('UPDATE workspaces SET timezone = $2 WHERE id = $1', [ws.workspaceId, ws.timezone]);

    // A national number of the workspace's new region is read in that region, not in the one of the last call.
    expect((await call(ws, { phone: '020 7946 0003' })).status).toBe(400);
    await app.db.query("UPDATE workspaces SET default_region = 'GB' WHERE id = $1", [ws.workspaceId]);
    const london = await placed(ws, '020 7946 0003');
    expect(london.to).toBe('442079460003');
  });
});
