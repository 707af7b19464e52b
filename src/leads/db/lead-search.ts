import type { Queryable } from '../../db/pool';
import type { LeadRow } from './leads';

/** Filters of GET /v1/leads; how each is served is described at searchLeads. */
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

const ORDER = 'ORDER BY created_at DESC, id DESC';
// Migration 015 indexes the first 1..PREFIX_BUCKETS characters of the full and the last name, each in page order.
const PREFIX_BUCKETS = 6;
// Leads per step of a walk over the created_at index (see walkCreated).
const CHUNK = 1000;
// Chunks walked before walkCreated looks whether the matches are few enough to sort (at most SORT_CAP).
const WALK_CHUNKS = 2;
const SORT_CAP = 5000;

/**
 * One page of the workspace's leads matching filters, newest first (created_at, id), after position when given; every
 * filter costs in proportion to the page, not to the workspace nor to the age of its matches (P7):
 * - phone and email (a handful of leads each) and no filter at all: one query the planner serves from an index.
 * - a single tag, tags with any, or a name prefix of up to PREFIX_BUCKETS characters alone: walked in page order
 *   through lead_tags or the name prefix indexes (migration 015), exact, no probe.
 * - otherwise a first query reads, per filter, its matches up to a cap of four pages (each a LIMITed scan of that
 *   filter's own index: lead_tags, updated_at, the name prefix btrees). A filter under the cap gives the candidates:
 *   they are checked against every filter and sorted (cost ≤ the cap, however old they are).
 * - when every filter has more matches than that: q walks its prefix bucket, else tags walk lead_tags (for all, the
 *   first tag, the row checked for the others), else updated_since walks the created_at index a chunk at a time, the
 *   other filters checked on each lead.
 */
export async function searchLeads(db: Queryable, workspaceId: string, filters: LeadFilters, limit: number, after?: LeadPosition): Promise<LeadListRow[]> {
  const selective = Boolean(filters.phones?.length) || filters.email !== undefined;
  const tags = filters.tags?.length ? filters.tags : undefined;
  if (selective || !(tags || filters.updatedSince || filters.q !== undefined)) {
    const p = new Params();
    const where = conditions(p, workspaceId, filters, after);
    return db.query<LeadListRow>(`SELECT *, ${position()} AS position FROM leads WHERE ${where} ${ORDER} LIMIT ${p.add(limit)}`, p.values);
  }
  // One filter walked exactly in page order needs no probe: a single tag, tags with any, or a short name prefix alone.
  const others = Number(Boolean(tags)) + Number(Boolean(filters.updatedSince)) + Number(filters.q !== undefined);
  const exactTags = tags && (tags.length === 1 || filters.tagMatch === 'any');
  const shortQ = filters.q !== undefined && [...filters.q].length <= PREFIX_BUCKETS;
  if (others === 1 && (exactTags || shortQ))
    return tags ? walkTags(db, workspaceId, { ...filters, tags }, limit, after) : walkPrefix(db, workspaceId, filters, limit, after);
  const candidates = await rareMatches(db, workspaceId, filters, 4 * limit);
  if (candidates) return pageOf(db, workspaceId, filters, candidates, limit, after);
  if (filters.q !== undefined) return walkPrefix(db, workspaceId, filters, limit, after);
  if (tags) return walkTags(db, workspaceId, { ...filters, tags }, limit, after);
  return walkCreated(db, workspaceId, filters, limit, after);
}

/** The ids of the leads matching the filter with the fewest matches, when one has fewer than cap; undefined otherwise. */
async function rareMatches(db: Queryable, workspaceId: string, filters: LeadFilters, cap: number): Promise<string[] | undefined> {
  const p = new Params();
  const ws = p.add(workspaceId);
  const probes: string[] = [];
  // Each probe is ordered as its index is, so the planner reads that index and stops at cap (never a scan that filters).
  const probe = (source: string, sql: string) => probes.push(`(SELECT '${source}' AS source, ${sql} LIMIT ${cap})`);
  filters.tags?.forEach((tag, i) =>
    probe(`t${i}`, `lead_id AS id FROM lead_tags WHERE workspace_id = ${ws} AND tag = ${p.add(tag)} ORDER BY created_at DESC, lead_id DESC`),
  );
  if (filters.updatedSince) probe('u', `id FROM leads WHERE workspace_id = ${ws} AND updated_at >= ${p.add(filters.updatedSince)} ORDER BY updated_at`);
  if (filters.q !== undefined) {
    const prefix = p.add(likePrefix(filters.q));
    // USING ~<~: the order of the text_pattern_ops btrees (a plain ORDER BY follows the collation, which they cannot give).
    probe('qf', `id FROM leads WHERE workspace_id = ${ws} AND ${FULL_NAME('')} LIKE ${prefix} ORDER BY ${FULL_NAME('')} USING ~<~`);
    probe('ql', `id FROM leads WHERE workspace_id = ${ws} AND lower(last_name) LIKE ${prefix} ORDER BY lower(last_name) USING ~<~`);
  }
  const found = new Map<string, string[]>();
  for (const row of await db.query<{ source: string; id: string }>(probes.join(' UNION ALL '), p.values)) {
    found.set(row.source, [...(found.get(row.source) ?? []), row.id]);
  }
  const ids = (source: string) => found.get(source) ?? [];
  const rare = (...sources: string[]) => (sources.every((s) => ids(s).length < cap) ? [...new Set(sources.flatMap(ids))] : undefined);
  const sets: (string[] | undefined)[] = [];
  const tagSources = (filters.tags ?? []).map((_, i) => `t${i}`);
  if (filters.tagMatch === 'any') sets.push(rare(...tagSources));
  else sets.push(...tagSources.map((s) => rare(s)));
  if (filters.updatedSince) sets.push(rare('u'));
  if (filters.q !== undefined) sets.push(rare('qf', 'ql'));
  return sets.filter((s) => s !== undefined).sort((a, b) => a.length - b.length)[0];
}

/** The page among candidate ids: each checked against every filter and the position, sorted. */
function pageOf(db: Queryable, workspaceId: string, filters: LeadFilters, ids: string[], limit: number, after?: LeadPosition): Promise<LeadListRow[]> {
  const p = new Params();
  const where = conditions(p, workspaceId, filters, after);
  return db.query<LeadListRow>(
    `SELECT *, ${position()} AS position FROM leads WHERE id = ANY(${p.add(ids)}::uuid[]) AND ${where} ${ORDER} LIMIT ${p.add(limit)}`,
    p.values,
  );
}

/**
 * Tags walked in page order through lead_tags (workspace, tag, created_at, lead_id), joined to the lead for the other
 * filters: all = the first tag's walk (the lead row must carry the others), any = one walk per tag, merged.
 */
async function walkTags(
  db: Queryable,
  workspaceId: string,
  filters: LeadFilters & { tags: string[] },
  limit: number,
  after?: LeadPosition,
): Promise<LeadListRow[]> {
  const p = new Params();
  const lim = p.add(limit);
  const walk = (tag: string, rest: LeadFilters) => {
    // No l.workspace_id: lead_tags' copy scopes the walk, and the planner, taking the two as independent, would
    // expect few rows to pass and sort every match instead of walking (seen in a small workspace of a large table).
    const where = [`t.workspace_id = ${p.add(workspaceId)}`, `t.tag = ${p.add(tag)}`, conditions(p, undefined, rest, undefined, 'l.')];
    if (after) where.push(`(t.created_at, t.lead_id) < (${p.add(after.createdAt)}::timestamptz, ${p.add(after.id)}::uuid)`);
    return `(SELECT l.*, ${position('l.')} AS position FROM lead_tags t JOIN leads l ON l.id = t.lead_id
      WHERE ${where.join(' AND ')} ORDER BY t.created_at DESC, t.lead_id DESC LIMIT ${lim})`;
  };
  const [first = ''] = filters.tags;
  if (filters.tagMatch !== 'any') return db.query<LeadListRow>(walk(first, filters), p.values);
  const rest = { ...filters, tags: undefined };
  // A lead carrying several of the tags comes from several walks: each walk's first page holds every lead of the merged
  // page that carries its tag, so the merged page is exact.
  const walks = [...new Set(filters.tags)].map((tag) => walk(tag, rest)).join(' UNION ALL ');
  return db.query<LeadListRow>(`SELECT * FROM (SELECT DISTINCT ON (id) * FROM (${walks}) w ORDER BY id) d ${ORDER} LIMIT ${lim}`, p.values);
}

/**
 * Name prefix walked in page order through the prefix indexes of migration 015: one walk over the full name's and one
 * over the last name's first min(length of q, PREFIX_BUCKETS) characters, merged. Exact for q up to PREFIX_BUCKETS
 * characters; a longer q is checked on each lead of its bucket (taken only when q has more than a few pages of matches).
 */
async function walkPrefix(db: Queryable, workspaceId: string, filters: LeadFilters, limit: number, after?: LeadPosition): Promise<LeadListRow[]> {
  const q = (filters.q ?? '').toLowerCase();
  const chars = [...q];
  const k = Math.min(chars.length, PREFIX_BUCKETS);
  const p = new Params();
  const lim = p.add(limit);
  const bucket = p.add(chars.slice(0, k).join(''));
  const rest = conditions(p, workspaceId, { ...filters, q: undefined }, after);
  const walk = (name: string) => {
    const longer = chars.length > k ? ` AND ${name} LIKE ${p.add(likePrefix(q))}` : '';
    return `(SELECT *, ${position()} AS position FROM leads WHERE left(${name}, ${k}) = ${bucket}${longer} AND ${rest} ${ORDER} LIMIT ${lim})`;
  };
  const walks = `${walk(FULL_NAME(''))} UNION ALL ${walk('lower(last_name)')}`;
  return db.query<LeadListRow>(`SELECT * FROM (SELECT DISTINCT ON (id) * FROM (${walks}) w ORDER BY id) d ${ORDER} LIMIT ${lim}`, p.values);
}

/**
 * The created_at index walked newest first a chunk of CHUNK leads at a time, each chunk filtered, until a page is
 * found or the workspace's oldest lead is passed. A LIMITed chunk keeps the planner on the walk (a wrong estimate
 * cannot turn it into a sort of every match); only taken for updated_since (no tag, no q) with more than a few pages
 * of matches. Those are dense among the newest leads (a lead is updated when created), but leads updated lately and
 * created long ago are not: after WALK_CHUNKS chunks without a page, when fewer than SORT_CAP leads match at all, the
 * rest of the page comes from sorting them (so polling "updated since my last poll" after a bulk update of old leads
 * does not walk the workspace).
 */
async function walkCreated(db: Queryable, workspaceId: string, filters: LeadFilters, limit: number, after?: LeadPosition): Promise<LeadListRow[]> {
  const found: LeadListRow[] = [];
  for (let from = after, chunks = 0; ; chunks++) {
    if (chunks === WALK_CHUNKS) {
      const candidates = await rareMatches(db, workspaceId, filters, SORT_CAP);
      if (candidates) return [...found, ...(await pageOf(db, workspaceId, filters, candidates, limit - found.length, from))];
    }
    const p = new Params();
    const scope = conditions(p, workspaceId, {}, from);
    const matches = conditions(p, workspaceId, filters, undefined);
    found.push(
      ...(await db.query<LeadListRow>(
        `SELECT *, ${position()} AS position FROM (SELECT * FROM leads WHERE ${scope} ${ORDER} LIMIT ${CHUNK}) chunk
         WHERE ${matches} ${ORDER} LIMIT ${p.add(limit - found.length)}`,
        p.values,
      )),
    );
    if (found.length === limit) return found;
    const e = new Params();
    const edge = await db.one<{ position: string; id: string }>(
      `SELECT ${position()} AS position, id FROM leads WHERE ${conditions(e, workspaceId, {}, from)} ${ORDER} OFFSET ${CHUNK - 1} LIMIT 1`,
      e.values,
    );
    if (!edge) return found;
    from = { createdAt: edge.position, id: edge.id };
  }
}

/** Query parameters, numbered as they are added. */
class Params {
  readonly values: unknown[] = [];
  /** Adds value; returns its placeholder. */
  add(value: unknown): string {
    return `$${this.values.push(value)}`;
  }
}

const FULL_NAME = (l: string) => `lower(coalesce(${l}first_name, '') || ' ' || coalesce(${l}last_name, ''))`;
// Microsecond precision, so the cursor sits exactly between two leads created in the same millisecond.
const position = (l = '') => `to_char(${l}created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const likePrefix = (s: string) => `${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The WHERE condition for the workspace (unless undefined), filters and keyset position on leads (columns prefixed by l). */
function conditions(p: Params, workspaceId: string | undefined, filters: LeadFilters, after: LeadPosition | undefined, l = ''): string {
  const where = workspaceId === undefined ? ['true'] : [`${l}workspace_id = ${p.add(workspaceId)}`];
  if (filters.phones?.length) where.push(`${l}phone = ANY(${p.add(filters.phones)}::text[])`);
  if (filters.email !== undefined) where.push(`lower(${l}email) = lower(${p.add(filters.email)})`);
  if (filters.tags?.length) where.push(`${l}tags ${filters.tagMatch === 'any' ? '&&' : '@>'} ${p.add(filters.tags)}::text[]`);
  if (filters.updatedSince) where.push(`${l}updated_at >= ${p.add(filters.updatedSince)}`);
  if (filters.q !== undefined) {
    const prefix = p.add(likePrefix(filters.q));
    where.push(`(${FULL_NAME(l)} LIKE ${prefix} OR lower(${l}last_name) LIKE ${prefix})`);
  }
  if (after) where.push(`(${l}created_at, ${l}id) < (${p.add(after.createdAt)}::timestamptz, ${p.add(after.id)}::uuid)`);
  return where.join(' AND ');
}
