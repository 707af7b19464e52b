// Concurrent lead creations share multi-row INSERTs (src/leads/db/lead-inserts.ts), on real Postgres: each caller still
// gets its own lead, a phone is one lead however many callers race for it, and one bad row fails only its caller.
import { randomBytes } from 'node:crypto';
import { createDb, type Db } from '../../src/db/pool';
import { findOrCreateLead } from '../../src/leads/db/leads';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import { normalizePhone } from '../../src/core/phone';
import { countingQueryable } from '../helpers/counting-db';
import { testEnv } from '../helpers/env';
import { newPhone } from '../helpers/journeys';

let db: Db;
beforeAll(() => {
  db = createDb(testEnv('databaseUrl'), { max: 5 });
});
afterAll(() => db.close());

const counting = () => countingQueryable(db);

const phone = () => normalizePhone(newPhone(), 'US')!;

describe('concurrent lead creation', () => {
  it('creates each lead once, in fewer statements than callers', async () => {
    const ws = await createWorkspace(db, { name: `inserts ${randomBytes(3).toString('hex')}` });
    const q = counting();
    const phones = Array.from({ length: 40 }, phone);
    const shared = phone();
    const results = await Promise.all([
      ...phones.map((p, i) => findOrCreateLead(q, ws.id, p, { first_name: `Lead ${i}` }, { n: i }, { insertFirst: true })),
      ...Array.from({ length: 5 }, () => findOrCreateLead(q, ws.id, shared, {}, {}, { insertFirst: true })),
    ]);

    results.slice(0, 40).forEach((r, i) => {
      expect(r.created).toBe(true);
      expect(r.lead).toMatchObject({ phone: phones[i], first_name: `Lead ${i}`, custom_fields: { n: i }, workspace_id: ws.id });
    });
    const sharedResults = results.slice(40);
    expect(sharedResults.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(sharedResults.map((r) => r.lead.id)).size).toBe(1);
    const stored = await db.query<{ phone: string; n: string }>('SELECT phone, count(*) AS n FROM leads WHERE workspace_id = $1 GROUP BY phone', [ws.id]);
    expect(stored).toHaveLength(41);
    expect(stored.every((r) => r.n === '1')).toBe(true);
    // The first insert goes alone; those arriving while it runs share the next statements (plus the 4 lookups of the
    // callers who found the shared phone taken).
    expect(q.statements).toBeLessThan(20);
  });

  it('fails only the caller whose row Postgres refuses', async () => {
    const ws = await createWorkspace(db, { name: `inserts ${randomBytes(3).toString('hex')}` });
    const q = counting();
    const phones = Array.from({ length: 10 }, phone);
    const results = await Promise.allSettled(
      phones.map((p, i) => findOrCreateLead(q, ws.id, p, { first_name: i === 6 ? 'bad\u0000name' : `Lead ${i}` }, {}, { insertFirst: true })),
    );
    expect(results.map((r) => r.status)).toEqual(phones.map((_, i) => (i === 6 ? 'rejected' : 'fulfilled')));
    const stored = await db.query<{ phone: string }>('SELECT phone FROM leads WHERE workspace_id = $1 ORDER BY phone', [ws.id]);
    expect(stored.map((r) => r.phone)).toEqual(phones.filter((_, i) => i !== 6).sort());
  });
});
