import type { Queryable } from '../pool';
import type { LeadRow } from './leads';

/** Filters of GET /v1/leads; every one is served by an index of migration 012. */
export interface LeadFilters {
  /** Normalised phones (E.164 digits); a lead matches any of them. */
  phones?: string[];
  email?: string;
  tags?: string[];
  tagMatch?: 'all' | 'any';
  updatedSince?: Date;
  /** Name prefix, matched case-insensitively against "first last" and the last name. */
  q?: string;
}

/** A keyset position: the created_at (microseconds, UTC) and id of the last lead of the previous page. */
export interface LeadPosition {
  createdAt: string;
  id: string;
}

export type LeadListRow = LeadRow & { position: string };

const FULL_NAME = "lower(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))";
// Microsecond precision, so the cursor sits exactly between two leads created in the same millisecond.
const POSITION = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const likePrefix = (s: string) => `${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// How many of the newest leads (after the cursor) the first pass reads and filters; see searchLeads.
const PROBE_ROWS = 2000;

/**
 * One page of the workspace's leads matching filters, newest first (created_at, id), after position when given.
 *
 * Phone and email are selective and the planner knows it: one query. For tags, name prefix and updated_since its
 * estimates can be far off (an uncommon tag is guessed at 0.5% of rows), and a wrong guess walks the whole workspace
 * in created_at order. So a first pass filters only the newest PROBE_ROWS leads (one index range, whatever the
 * workspace's size, stopping at a full page); when they hold a full page, that page is exact. Otherwise the rest comes from the filters' own
 * indexes (tags' GIN, the name and updated_at btrees), below the probed range, sorted afterwards: the order by an
 * expression keeps the planner off the created_at walk, and there are few matches, or the probe would have found them.
 */
export async function searchLeads(db: Queryable, workspaceId: string, filters: LeadFilters, limit: number, after?: LeadPosition): Promise<LeadListRow[]> {
  const selective = Boolean(filters.phones?.length) || filters.email !== undefined;
  const filtered = selective || Boolean(filters.tags?.length) || filters.updatedSince !== undefined || filters.q !== undefined;
  const order = 'ORDER BY created_at DESC, id DESC';
  if (selective || !filtered) {
    const { sql, params } = statement(workspaceId, filters, after);
    params.push(limit);
    return db.query<LeadListRow>(`SELECT *, ${POSITION} AS position FROM leads WHERE ${sql} ${order} LIMIT $${params.length}`, params);
  }
  const { sql: scope, params } = statement(workspaceId, {}, after);
  const { sql: matches } = statement(workspaceId, filters, undefined, params);
  params.push(limit);
  // Not materialised: the executor reads the newest leads only until a page of matches is found.
  const found = await db.query<LeadListRow>(
    `SELECT *, ${POSITION} AS position FROM (SELECT * FROM leads WHERE ${scope} ${order} LIMIT ${PROBE_ROWS}) recent
     WHERE ${matches} ${order} LIMIT $${params.length}`,
    params,
  );
  if (found.length === limit) return found;
  // Below the probed range (none when the probe reached the workspace's oldest lead: the comparison is then null).
  const rest = statement(workspaceId, filters, undefined);
  const edge = statement(workspaceId, {}, after, rest.params);
  rest.params.push(limit - found.length);
  return [
    ...found,
    ...(await db.query<LeadListRow>(
      `SELECT *, ${POSITION} AS position FROM leads WHERE ${rest.sql}
         AND (created_at, id) < (SELECT created_at, id FROM leads WHERE ${edge.sql} ${order} OFFSET ${PROBE_ROWS - 1} LIMIT 1)
       ORDER BY created_at + interval '0' DESC, id DESC LIMIT $${rest.params.length}`,
      rest.params,
    )),
  ];
}

/** The WHERE condition for the workspace, filters and keyset position, adding its values to params. */
function statement(workspaceId: string, filters: LeadFilters, after: LeadPosition | undefined, params: unknown[] = []): { sql: string; params: unknown[] } {
  const param = (value: unknown) => `$${params.push(value)}`;
  const where = [`workspace_id = ${param(workspaceId)}`];
  if (filters.phones?.length) where.push(`phone = ANY(${param(filters.phones)}::text[])`);
  if (filters.email !== undefined) where.push(`lower(email) = lower(${param(filters.email)})`);
  if (filters.tags?.length) where.push(`tags ${filters.tagMatch === 'any' ? '&&' : '@>'} ${param(filters.tags)}::text[]`);
  if (filters.updatedSince) where.push(`updated_at >= ${param(filters.updatedSince)}`);
  if (filters.q !== undefined) {
    const prefix = param(likePrefix(filters.q));
    where.push(`(${FULL_NAME} LIKE ${prefix} OR lower(last_name) LIKE ${prefix})`);
  }
  if (after) where.push(`(created_at, id) < (${param(after.createdAt)}::timestamptz, ${param(after.id)}::uuid)`);
  return { sql: where.join(' AND '), params };
}

/**
 * Bulk-inserts count synthetic leads (bench only): phones from firstPhone upwards, names First<n> Last<n>, emails
 * lead<n>@<domain>, tag t<n mod 10> on every lead and `rare` on ten of them (whatever count is), created (and last
 * updated) evenly over the past year, lead count newest.
 */
export async function insertSyntheticLeads(db: Queryable, workspaceId: string, count: number, firstPhone: number, domain: string): Promise<void> {
  await db.query(
    `INSERT INTO leads (id, workspace_id, phone, first_name, last_name, email, company, tags, created_at, updated_at)
     SELECT gen_random_uuid(), $1, ($2::bigint + g)::text, 'First' || g, 'Last' || g, 'lead' || g || '@' || $4, 'Co',
       CASE WHEN g % greatest($3::int / 10, 1) = 0 THEN ARRAY['t' || (g % 10), 'rare'] ELSE ARRAY['t' || (g % 10)] END,
       now() - (($3::int - g) * interval '1 second') * (31536000.0 / $3::int),
       now() - (($3::int - g) * interval '1 second') * (31536000.0 / $3::int)
     FROM generate_series(1, $3::int) g`,
    [workspaceId, firstPhone, count, domain],
  );
}
