// Concurrent api calls through call admission (src/calls/admission.ts) and its writing statement (migration 024's
// write_admitted_calls), on real Postgres: each call is judged and written as if alone (the cap holds exactly), and one
// call Postgres refuses fails only itself.
import { randomBytes, randomUUID } from 'node:crypto';
import { admitApiCall } from '../../src/calls/admission';
import { writeCallHoldingSlot, type AdmittedCall } from '../../src/calls/db/admission';
import { createDb, type Db } from '../../src/db/pool';
import { createAgent, createPhoneGroup } from '../../src/agents/db/agents';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import { phoneEnding, zoneInDaytime } from '../helpers/calls';
import { countingQueryable } from '../helpers/counting-db';
import { testEnv } from '../helpers/env';

let db: Db;
beforeAll(() => {
  db = createDb(testEnv('databaseUrl'), { max: 5 });
});
afterAll(() => db.close());

const counting = () => countingQueryable(db);

async function callingWorkspace(cap: number) {
  const ws = await createWorkspace(db, { name: `placements ${randomBytes(3).toString('hex')}`, timezone: zoneInDaytime() });
  await db.query('UPDATE workspaces SET max_concurrent_calls = $2 WHERE id = $1', [ws.id, cap]);
  const group = await createPhoneGroup(db, ws.id, { name: 'out', numbers: ['17145559001', '12125559002'] });
  const agent = await createAgent(db, ws.id, { name: 'Ava', phoneGroupId: group.id });
  const ask = (requestData?: unknown) => ({ id: randomUUID(), agentId: agent.id, phone: phoneEnding('0001'), requestData });
  const admitted = (requestData?: unknown): AdmittedCall => ({
    id: randomUUID(),
    workspaceId: ws.id,
    agentId: agent.id,
    leadId: null,
    to: phoneEnding('0001'),
    from: '12125559002',
    requestData,
  });
  return { workspaceId: ws.id, ask, admitted };
}

const rowsOf = (workspaceId: string) =>
  db.query<{ id: string; phone_to: string; phone_from: string; held: boolean }>(
    'SELECT id, phone_to, phone_from, slot_taken_at IS NOT NULL AS held FROM calls WHERE workspace_id = $1',
    [workspaceId],
  );
const used = async (workspaceId: string) =>
  (await db.one<{ used: number }>('SELECT used FROM call_slot_counts WHERE workspace_id = $1', [workspaceId]))?.used ?? 0;

describe('concurrent api call placement', () => {
  it('admits exactly as many concurrent calls as the cap allows, each once, refusing the rest over the cap', async () => {
    const ws = await callingWorkspace(25);
    const asks = Array.from({ length: 40 }, () => ws.ask({ n: 1 }));
    const results = await Promise.all(asks.map((a) => admitApiCall(db, ws.workspaceId, a)));

    const placed = asks.filter((_, i) => results[i]!.ok).map((a) => a.id);
    expect(placed).toHaveLength(25);
    expect(results.filter((r) => !r.ok).map((r) => r.ok || r.code)).toEqual(Array(15).fill('concurrent_call_cap'));
    const rows = await rowsOf(ws.workspaceId);
    expect(rows.map((r) => r.id).sort()).toEqual([...placed].sort());
    expect(rows.every((r) => r.held && r.phone_from === '12125559002')).toBe(true); // the destination's area code (212)
    expect(rows.map((r) => r.phone_to).sort()).toEqual(
      asks
        .filter((a) => placed.includes(a.id))
        .map((a) => a.phone)
        .sort(),
    );
    expect(await used(ws.workspaceId)).toBe(25);
  });

  it("spreads calls judged at once over the group's numbers, least recently used first", async () => {
    const ws = await callingWorkspace(100);
    // Destinations whose area code (305) no number of the group shares.
    const asks = Array.from({ length: 10 }, () => ({ ...ws.ask(), phone: phoneEnding('0001').replace(/^1212/, '1305') }));
    const results = await Promise.all(asks.map((a) => admitApiCall(db, ws.workspaceId, a)));
    expect(results.every((r) => r.ok)).toBe(true);
    const from = await db.query<{ phone_from: string; n: number }>(
      'SELECT phone_from, count(*)::int AS n FROM calls WHERE workspace_id = $1 GROUP BY phone_from ORDER BY phone_from',
      [ws.workspaceId],
    );
    expect(from).toEqual([
      { phone_from: '12125559002', n: 5 },
      { phone_from: '17145559001', n: 5 },
    ]);
  });

  it('writes exactly as many calls as the cap allows, each once, in fewer statements than callers', async () => {
    const ws = await callingWorkspace(25);
    const q = counting();
    const calls = Array.from({ length: 40 }, () => ws.admitted({ n: 1 }));
    const results = await Promise.all(calls.map((c) => writeCallHoldingSlot(q, c)));
    const placed = calls.filter((_, i) => results[i] === 'placed').map((c) => c.id);
    expect(placed).toHaveLength(25);
    expect(results.filter((r) => r !== 'placed')).toEqual(Array(15).fill('full'));
    expect((await rowsOf(ws.workspaceId)).map((r) => r.id).sort()).toEqual([...placed].sort());
    expect(await used(ws.workspaceId)).toBe(25);
    // The first call goes alone; those arriving while it runs share the next statements.
    expect(q.statements).toBeLessThan(20);
  });

  it('writes nothing for a refused call and says why', async () => {
    const ws = await callingWorkspace(10);
    const ask = ws.ask();
    await db.query("INSERT INTO do_not_call (workspace_id, phone, reason) VALUES ($1, $2, 'asked')", [ws.workspaceId, ask.phone]);
    expect(await admitApiCall(counting(), ws.workspaceId, ask)).toEqual({ ok: false, code: 'do_not_call' });
    expect(await rowsOf(ws.workspaceId)).toEqual([]);
    expect(await used(ws.workspaceId)).toBe(0);
  });

  it('fails only the caller whose call Postgres refuses', async () => {
    const ws = await callingWorkspace(100);
    const q = counting();
    const asks = Array.from({ length: 10 }, (_, i) => ws.ask(i === 6 ? { note: 'bad\u0000' } : { n: i }));
    const results = await Promise.allSettled(asks.map((a) => admitApiCall(q, ws.workspaceId, a)));
    expect(results.map((r) => r.status)).toEqual(asks.map((_, i) => (i === 6 ? 'rejected' : 'fulfilled')));
    const stored = await db.query<{ id: string }>('SELECT id FROM calls WHERE workspace_id = $1 ORDER BY id', [ws.workspaceId]);
    expect(stored.map((r) => r.id)).toEqual(
      asks
        .filter((_, i) => i !== 6)
        .map((a) => a.id)
        .sort(),
    );
  });
});
