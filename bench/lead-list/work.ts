// Load-independent figures for bench/lead-list.ts: the queries one listing sends and the buffers (8 kB pages) its
// plans touch, read from EXPLAIN (ANALYZE, BUFFERS) of each query the repository runs. Planning is left out (the
// catalog cache is warm in a running api).
import { decodeCursor } from '../../src/http/cursor';
import type { Queryable } from '../../src/db/pool';
import { searchLeads, type LeadFilters } from '../../src/leads/db/lead-search';

/** What one listing cost the database. */
export interface Work {
  queries: number;
  buffers: number;
}

type Plan = { Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } };

/** Lists leads as GET /v1/leads?query would (bench queries only: phones already E.164 digits, with or without '+'). */
export async function listingWork(db: Queryable, workspaceId: string, query: string): Promise<Work> {
  const work: Work = { queries: 0, buffers: 0 };
  const run = async (sql: string, params?: unknown[]) => {
    work.queries++;
    const explained = await db.one<{ 'QUERY PLAN': Plan[] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
    const plan = explained?.['QUERY PLAN'][0]?.Plan;
    // A node's buffers include its children's and its subplans'.
    work.buffers += (plan?.['Shared Hit Blocks'] ?? 0) + (plan?.['Shared Read Blocks'] ?? 0);
    return db.query(sql, params);
  };
  const counting = { query: run, one: async (sql: string, params?: unknown[]) => (await run(sql, params))[0] } as Queryable;
  const u = new URLSearchParams(query);
  const many = (name: string) => (u.getAll(name).length ? u.getAll(name) : undefined);
  const filters: LeadFilters = {
    phones: many('phone')?.map((p) => p.replace(/^\+/, '')),
    email: u.get('email') ?? undefined,
    tags: many('tag'),
    tagMatch: u.get('tag_match') === 'any' ? 'any' : 'all',
    updatedSince: u.has('updated_since') ? new Date(u.get('updated_since')!) : undefined,
    q: u.get('q') ?? undefined,
  };
  const cursor = u.get('cursor');
  const after = cursor ? decodeCursor(cursor) : undefined;
  await searchLeads(counting, workspaceId, filters, Number(u.get('limit') ?? 50) + 1, after && { createdAt: after.at, id: after.id });
  return work;
}
