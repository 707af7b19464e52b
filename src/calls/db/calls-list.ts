import type { Queryable } from '../../db/pool';
import type { CallRowJson } from './calls';

/** Where a page starts: after the call with this creation time (epoch microseconds, exact) and id. */
export interface CallsCursor {
  createdAtUs: string;
  id: string;
}

/** What GET /v1/calls filters on. */
export interface CallsFilter {
  status?: string;
  agentId?: string;
  leadId?: string;
  since?: Date;
}

/** One listed call: its row and its legs' rows (to_jsonb, in leg order), and its cursor position. */
export interface ListedCall {
  row: CallRowJson;
  legs: CallRowJson[];
  cursor: CallsCursor;
}

/**
 * Up to limit of the workspace's calls (parents only), newest first, after the cursor; served by the calls_list*
 * indexes. Legs come in one more query.
 */
export async function listCalls(db: Queryable, workspaceId: string, f: CallsFilter, limit: number, after?: CallsCursor): Promise<ListedCall[]> {
  const where = ['c.workspace_id = $1', 'c.parent_id IS NULL'];
  const params: unknown[] = [workspaceId];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    where.push(sql(params.length));
  };
  if (f.status !== undefined) add((n) => `c.status = $${n}`, f.status);
  if (f.agentId !== undefined) add((n) => `c.agent_id = $${n}`, f.agentId);
  if (f.leadId !== undefined) add((n) => `c.lead_id = $${n}`, f.leadId);
  if (f.since !== undefined) add((n) => `c.created_at >= $${n}`, f.since);
  if (after) {
    params.push(after.createdAtUs, after.id);
    // Exact microseconds both ways: a page never skips or repeats a call created in the same millisecond.
    where.push(`(c.created_at, c.id) < (timestamptz 'epoch' + $${params.length - 1}::bigint * interval '1 microsecond', $${params.length})`);
  }
  params.push(limit);
  const rows = await db.query<{ row: CallRowJson; us: string; id: string }>(
    `SELECT to_jsonb(c) AS row, c.id, (extract(epoch FROM c.created_at) * 1000000)::bigint::text AS us
     FROM calls c WHERE ${where.join(' AND ')}
     ORDER BY c.created_at DESC, c.id DESC LIMIT $${params.length}`,
    params,
  );
  if (rows.length === 0) return [];
  const legs = await db.query<{ row: CallRowJson; parent_id: string }>(
    `SELECT to_jsonb(c) AS row, c.parent_id FROM calls c
     WHERE c.workspace_id = $1 AND c.parent_id = ANY ($2::text[]) ORDER BY c.parent_id, c.leg, c.id`,
    [workspaceId, rows.map((r) => r.id)],
  );
  const byParent = new Map<string, CallRowJson[]>();
  for (const l of legs) byParent.set(l.parent_id, [...(byParent.get(l.parent_id) ?? []), l.row]);
  return rows.map((r) => ({ row: r.row, legs: byParent.get(r.id) ?? [], cursor: { createdAtUs: r.us, id: r.id } }));
}
