import { randomUUID } from 'node:crypto';
import { perHandle, prepared, type Prepared, type Queryable } from '../../db/pool';
import { LeadInserts, type NewLeadValues } from './lead-inserts';
import { STANDARD_FIELDS, type LeadValues, type StandardField } from '../rules';

export interface LeadRow extends LeadValues {
  id: string;
  workspace_id: string;
  created_at: Date;
  updated_at: Date;
}

export { STANDARD_FIELDS, type StandardField };
export type LeadFields = Partial<Record<StandardField, string | null>>;

const COLUMNS = 'id, workspace_id, phone, first_name, last_name, email, company, timezone, tags, custom_fields, created_at, updated_at';

// The two lookups are plain functions returning the query's promise: no extra async frame on the hot path.
const BY_ID = prepared('lead_by_id', `SELECT ${COLUMNS} FROM leads WHERE workspace_id = $1 AND id = $2`);
const BY_PHONE = prepared('lead_by_phone', `SELECT ${COLUMNS} FROM leads WHERE workspace_id = $1 AND phone = $2`);

export function findLeadById(db: Queryable, workspaceId: string, id: string): Promise<LeadRow | undefined> {
  return db.one<LeadRow>(BY_ID, [workspaceId, id]);
}

/** phone must already be normalised (E.164 digits). */
export function findLeadByPhone(db: Queryable, workspaceId: string, phone: string): Promise<LeadRow | undefined> {
  return db.one<LeadRow>(BY_PHONE, [workspaceId, phone]);
}

/**
 * Finds the lead with this phone or creates it from fields; concurrent callers with one new phone all get the
 * same single lead (the unique (workspace_id, phone) index decides, not a read-then-write race). insertFirst skips
 * the opening read, for callers that expect a new phone (one round trip then).
 */
export async function findOrCreateLead(
  db: Queryable,
  workspaceId: string,
  phone: string,
  fields: LeadFields,
  custom: Record<string, unknown> = {},
  opts: { insertFirst?: boolean } = {},
): Promise<{ lead: LeadRow; created: boolean }> {
  const existing = opts.insertFirst ? undefined : await findLeadByPhone(db, workspaceId, phone);
  if (existing) return { lead: existing, created: false };
  const values: NewLeadValues = [
    randomUUID(),
    workspaceId,
    phone,
    fields.first_name ?? null,
    fields.last_name ?? null,
    fields.email ?? null,
    fields.company ?? null,
    fields.timezone ?? null,
    // A null custom value means "no value" (on update it removes the field): nothing to store.
    JSON.stringify(Object.fromEntries(Object.entries(custom).filter(([, v]) => v !== null && v !== undefined))),
  ];
  const inserted = await insertsOf(db).insert(values);
  if (inserted) return { lead: inserted, created: true };
  const winner = await findLeadByPhone(db, workspaceId, phone);
  if (!winner) throw new Error('lead vanished between insert conflict and read');
  return { lead: winner, created: false };
}

const INSERT_COLUMNS = ['id', 'workspace_id', 'phone', 'first_name', 'last_name', 'email', 'company', 'timezone', 'custom_fields'];
// One prepared statement per row count, made on first use (at most LeadInserts' 100 per connection).
const insertStatements = new Map<number, Prepared>();
const insertSql = (rows: number): Prepared => {
  let statement = insertStatements.get(rows);
  if (!statement) insertStatements.set(rows, (statement = prepared(`lead_insert_${rows}`, insertText(rows))));
  return statement;
};
const insertText = (rows: number) =>
  `INSERT INTO leads (${INSERT_COLUMNS.join(', ')}) VALUES ${Array.from(
    { length: rows },
    (_, r) => `(${INSERT_COLUMNS.map((_c, c) => `$${r * INSERT_COLUMNS.length + c + 1}`).join(', ')})`,
  ).join(', ')}
   ON CONFLICT (workspace_id, phone) DO NOTHING
   RETURNING ${COLUMNS}`;

// One batcher per pool: concurrent creations through the pool share statements. A transaction's client is used by
// one caller at a time, so its inserts simply go one by one through a batcher of its own.
const insertsOf = perHandle((db) => new LeadInserts<LeadRow>(db, insertSql));

/** SQL that puts the phone of the leads in CTE `src` on the do-not-call list when they carry the tag dnc (any case). */
const DNC_FROM = (src: string, when: string) =>
  `INSERT INTO do_not_call (workspace_id, phone, reason)
   SELECT workspace_id, phone, 'tagged dnc' FROM ${src} WHERE ${when}
   ON CONFLICT (workspace_id, phone) DO NOTHING`;

/**
 * Sets the given standard fields and merges custom fields (a null custom value removes that field); fields left
 * undefined are untouched. A lead tagged dnc keeps its new phone on the do-not-call list too. Undefined when the
 * lead is not in the workspace; a phone held by another lead throws a unique violation (see isUniqueViolation).
 */
export async function updateLead(
  db: Queryable,
  workspaceId: string,
  id: string,
  fields: LeadFields & { phone?: string },
  custom: Record<string, unknown> = {},
): Promise<LeadRow | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [workspaceId, id];
  for (const key of ['phone', ...STANDARD_FIELDS] as const) {
    const value = fields[key];
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${key} = $${params.length}`);
  }
  const merge = Object.fromEntries(Object.entries(custom).filter(([, v]) => v !== null && v !== undefined));
  const remove = Object.keys(custom).filter((k) => custom[k] === null);
  if (Object.keys(merge).length || remove.length) {
    params.push(JSON.stringify(merge), remove);
    sets.push(`custom_fields = (custom_fields || $${params.length - 1}::jsonb) - $${params.length}::text[]`);
  }
  if (!sets.length) return findLeadById(db, workspaceId, id);
  const update = `UPDATE leads SET ${sets.join(', ')}, updated_at = now() WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`;
  if (fields.phone === undefined) return db.one<LeadRow>(update, params);
  return db.one<LeadRow>(
    `WITH updated AS (${update}),
     dnc AS (${DNC_FROM('updated', "EXISTS (SELECT 1 FROM unnest(tags) t WHERE lower(t) = 'dnc')")})
     SELECT * FROM updated`,
    params,
  );
}

/**
 * Adds a tag (no duplicates); returns the lead, or undefined when it is not in the workspace. The tag dnc (any
 * case) also puts the lead's phone on the workspace's do-not-call list, in the same statement.
 */
export async function addTag(db: Queryable, workspaceId: string, id: string, tag: string): Promise<LeadRow | undefined> {
  return db.one<LeadRow>(
    `WITH tagged AS (
       UPDATE leads SET tags = CASE WHEN $3 = ANY(tags) THEN tags ELSE array_append(tags, $3::text) END,
         updated_at = CASE WHEN $3 = ANY(tags) THEN updated_at ELSE now() END
       WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}
     ),
     dnc AS (${DNC_FROM('tagged', "lower($3::text) = 'dnc'")})
     SELECT * FROM tagged`,
    [workspaceId, id, tag],
  );
}

/** Removes a tag (absent is fine); undefined when the lead is not in the workspace. The do-not-call list is left as is. */
export async function removeTag(db: Queryable, workspaceId: string, id: string, tag: string): Promise<LeadRow | undefined> {
  return db.one<LeadRow>(
    `UPDATE leads SET tags = array_remove(tags, $3),
       updated_at = CASE WHEN $3 = ANY(tags) THEN now() ELSE updated_at END
     WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [workspaceId, id, tag],
  );
}

/** The custom field keys a workspace defines. */
export async function customFieldKeys(db: Queryable, workspaceId: string): Promise<Set<string>> {
  const rows = await db.query<{ key: string }>('SELECT key FROM custom_fields WHERE workspace_id = $1', [workspaceId]);
  return new Set(rows.map((r) => r.key));
}

/** The workspace's custom field definitions, by key. */
export async function listCustomFields(db: Queryable, workspaceId: string): Promise<{ key: string; label: string | null }[]> {
  return db.query('SELECT key, label FROM custom_fields WHERE workspace_id = $1 ORDER BY key', [workspaceId]);
}

/** Defines a custom field or relabels it (label undefined keeps the label, null or '' clears it); the key must pass CustomFieldKey (src/leads/rules.ts). */
export async function defineCustomField(db: Queryable, workspaceId: string, key: string, label?: string | null): Promise<void> {
  await db.query(
    `INSERT INTO custom_fields (workspace_id, key, label) VALUES ($1, $2, NULLIF($3, ''))
     ON CONFLICT (workspace_id, key) DO UPDATE SET label = CASE WHEN $4 THEN custom_fields.label ELSE EXCLUDED.label END`,
    [workspaceId, key, label ?? null, label === undefined],
  );
}

/** The spec's Lead object, plus `timezone` when set and the stored custom fields under `custom_fields` when any. */
export function presentLead(lead: LeadRow) {
  return {
    lead_id: lead.id,
    phone: lead.phone,
    first_name: lead.first_name ?? '',
    last_name: lead.last_name ?? '',
    email: lead.email ?? '',
    company: lead.company ?? '',
    tags: lead.tags,
    created_at: lead.created_at.toISOString(),
    updated_at: lead.updated_at.toISOString(),
    ...(lead.timezone ? { timezone: lead.timezone } : {}),
    ...(Object.keys(lead.custom_fields).length ? { custom_fields: lead.custom_fields } : {}),
  };
}
