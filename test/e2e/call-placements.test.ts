// Concurrent api calls share one placing statement (src/calls/db/call-placements.ts, migration 019), on real Postgres:
// each call is judged and written as if alone (the cap holds exactly), and one call Postgres refuses fails only itself.
import { randomBytes, randomUUID } from 'node:crypto';
import { createDb, type Db } from '../../src/db/pool';
import { createAgent, createPhoneGroup } from '../../src/agents/db/agents';
import { placeCallIfAllowed, type ApiCall, type CallAssumptions } from '../../src/calls/db/calls-place';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import { phoneEnding } from '../helpers/calls';
import { countingQueryable } from '../helpers/counting-db';
import { testEnv } from '../helpers/env';

let db: Db;
beforeAll(() => {
  db = createDb(testEnv('databaseUrl'), { max: 5 });
});
afterAll(() => db.close());

const counting = () => countingQueryable(db);

async function callingWorkspace(cap: number) {
  const ws = await createWorkspace(db, { name: `placements ${randomBytes(3).toString('hex')}`, timezone: 'Europe/Berlin' });
  await db.query('UPDATE workspaces SET max_concurrent_calls = $2 WHERE id = $1', [ws.id, cap]);
  const group = await createPhoneGroup(db, ws.id, { name: 'out', numbers: ['17145559001', '12125559002'] });
  const agent = await createAgent(db, ws.id, { name: 'Ava', phoneGroupId: group.id });
  const call = (requestData?: unknown): ApiCall => ({ id: randomUUID(), workspaceId: ws.id, agentId: agent.id, to: phoneEnding('0001'), from: null, requestData });
  return { workspaceId: ws.id, call };
}

const judged: CallAssumptions = { default_region: 'US', workspaceTimezone: 'Europe/Berlin', call_window: null, leadTimezone: null, windowOpen: true };

describe('concurrent api call placement', () => {
  it('places exactly as many calls as the cap allows, each once, in fewer statements than callers', async () => {
    const ws = await callingWorkspace(25);
    const q = counting();
    const calls = Array.from({ length: 40 }, () => ws.call({ n: 1 }));
    const results = await Promise.all(calls.map((c) => placeCallIfAllowed(q, c, judged)));

    expect(results.every((r) => r?.allowed === true)).toBe(true);
    const placed = calls.filter((_, i) => results[i]!.placed).map((c) => c.id);
    expect(placed).toHaveLength(25);
    const rows = await db.query<{ id: string; phone_to: string; phone_from: string; held: boolean }>(
      'SELECT id, phone_to, phone_from, slot_taken_at IS NOT NULL AS held FROM calls WHERE workspace_id = $1',
      [ws.workspaceId],
    );
    expect(rows.map((r) => r.id).sort()).toEqual([...placed].sort());
    expect(rows.every((r) => r.held && r.phone_from === '12125559002')).toBe(true); // the destination's area code (212)
    expect(rows.map((r) => r.phone_to).sort()).toEqual(calls.filter((c) => placed.includes(c.id)).map((c) => c.to).sort());
    const [counter] = await db.query<{ used: number }>('SELECT used FROM call_slot_counts WHERE workspace_id = $1', [ws.workspaceId]);
    expect(counter!.used).toBe(25);
    // The first call goes alone; those arriving while it runs share the next statements.
    expect(q.statements).toBeLessThan(20);
  });

  it('writes nothing for a call judged on facts that are not the ones read, and says what they are', async () => {
    const ws = await callingWorkspace(10);
    const got = await placeCallIfAllowed(counting(), ws.call(), { ...judged, workspaceTimezone: 'UTC' });
    expect(got).toMatchObject({ allowed: false, placed: false, workspaceTimezone: 'Europe/Berlin', default_region: 'US', chosenFrom: '12125559002' });
    expect(await db.query('SELECT id FROM calls WHERE workspace_id = $1', [ws.workspaceId])).toEqual([]);
  });

  it('fails only the caller whose call Postgres refuses', async () => {
    const ws = await callingWorkspace(100);
    const q = counting();
    const calls = Array.from({ length: 10 }, (_, i) => ws.call(i === 6 ? { note: 'bad\u0000' } : { n: i }));
    const results = await Promise.allSettled(calls.map((c) => placeCallIfAllowed(q, c, judged)));
    expect(results.map((r) => r.status)).toEqual(calls.map((_, i) => (i === 6 ? 'rejected' : 'fulfilled')));
    const stored = await db.query<{ id: string }>('SELECT id FROM calls WHERE workspace_id = $1 ORDER BY id', [ws.workspaceId]);
    expect(stored.map((r) => r.id)).toEqual(calls.filter((_, i) => i !== 6).map((c) => c.id).sort());
  });
});
