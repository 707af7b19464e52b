import type { Queryable } from '../../db/pool';

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
