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

/** One page of the workspace's leads matching filters, newest first (created_at, id), after position when given. */
export function searchLeads(db: Queryable, workspaceId: string, filters: LeadFilters, limit: number, after?: LeadPosition): Promise<LeadListRow[]> {
  const params: unknown[] = [workspaceId];
  const where = ['workspace_id = $1'];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (filters.phones?.length) where.push(`phone = ANY(${param(filters.phones)}::text[])`);
  if (filters.email !== undefined) where.push(`lower(email) = lower(${param(filters.email)})`);
  if (filters.tags?.length) where.push(`tags ${filters.tagMatch === 'any' ? '&&' : '@>'} ${param(filters.tags)}::text[]`);
  if (filters.updatedSince) where.push(`updated_at >= ${param(filters.updatedSince)}`);
  if (filters.q !== undefined) {
    const prefix = param(likePrefix(filters.q));
    where.push(`(${FULL_NAME} LIKE ${prefix} OR lower(last_name) LIKE ${prefix})`);
  }
  if (after) where.push(`(created_at, id) < (${param(after.createdAt)}::timestamptz, ${param(after.id)}::uuid)`);
  return db.query<LeadListRow>(
    `SELECT *, ${POSITION} AS position FROM leads WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${param(limit)}`,
    params,
  );
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
