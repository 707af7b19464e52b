// Call admission's facts statement (src/calls/db/admission.ts) finds a call's lead through an index, by id or by phone:
// the rows it reads do not grow with the workspace's leads (a campaign calls a workspace of thousands, one call each).
import { randomUUID } from 'node:crypto';
import { ADMISSION_FACTS, readAdmissionFacts } from '../../src/calls/db/admission';
import { callingWorkspace } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(120_000);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const LEADS = 3000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

describe('call admission facts', () => {
  it("reads only the call's own lead, by id or by phone, whatever the workspace's size", async () => {
    const ws = await callingWorkspace(app);
    await app.db.query(`INSERT INTO leads (id, workspace_id, phone) SELECT gen_random_uuid(), $1, (12120000000 + g)::text FROM generate_series(1, $2::int) g`, [
      ws.workspaceId,
      LEADS,
    ]);
    await app.db.query('ANALYZE leads');
    const [byId, byPhone] = await app.db.query<{ id: string; phone: string }>('SELECT id, phone FROM leads WHERE workspace_id = $1 ORDER BY phone LIMIT 2', [
      ws.workspaceId,
    ]);
    const other = await callingWorkspace(app);
    const [foreign] = await app.db.query<{ id: string }>(`INSERT INTO leads (id, workspace_id, phone) VALUES ($1, $2, '12125550000') RETURNING id`, [
      randomUUID(),
      other.workspaceId,
    ]);
    const asks = [
      { to: '19995550000', leadId: byId!.id },
      { to: byPhone!.phone, leadId: null },
      { to: '19995550001', leadId: null },
      { to: '19995550002', leadId: foreign!.id },
    ];

    const [explained] = await app.db.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${ADMISSION_FACTS.text}`, [
      asks.map(() => ws.workspaceId),
      asks.map(() => ws.agentId),
      asks.map((a) => a.to),
      asks.map(() => null),
      asks.map((a) => a.leadId),
    ]);
    const all = nodes(explained!['QUERY PLAN'][0]!.Plan);
    const leadRows = all
      .filter((n) => n['Relation Name'] === 'leads')
      .reduce((sum, n) => sum + n['Actual Rows'] * n['Actual Loops'] + (n['Rows Removed by Filter'] ?? 0), 0);
    // Two leads found; before, each ask walked the workspace's 3,000 and kept one by a join filter.
    expect(leadRows).toBeLessThanOrEqual(asks.length);

    const facts = await Promise.all(asks.map((a) => readAdmissionFacts(app.db, { workspaceId: ws.workspaceId, agentId: ws.agentId, ...a })));
    expect(facts.map((f) => f?.leadId ?? null)).toEqual([byId!.id, byPhone!.id, null, null]);
  });
});
