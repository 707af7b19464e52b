import { DomainError } from '../../core/errors';
import type { LeadFields } from '../db/leads';
import { INVALID_PHONE, normalizeRecordPhone, splitRecord } from '../record';
import { Tag, TAG_RULE } from '../rules';

/** One import record made ready to write: a normalised phone, validated fields and the tags to add. */
export interface ImportLead {
  phone: string;
  standard: LeadFields;
  custom: Record<string, unknown>;
  tags: string[];
}

/** A record's outcome before it meets the leads table: ready, or failed with the reason the import reports. */
export type ReadRow = { ok: true; lead: ImportLead } | { ok: false; reason: string };

/** How a workspace reads records: its phone region and custom field keys, and the tag every imported lead gets. */
export interface RowContext {
  region: string;
  customKeys: Set<string>;
  tag?: string;
}

const TAG_SEPARATOR = /[,;|]/;

/**
 * Reads one record (CSV: column → text; NDJSON: a JSON object). Empty values and nulls count as not supplied, so
 * an update never clears a field; `tags` is a list or a text of tags separated by commas, semicolons or bars.
 */
export function readRow(record: unknown, ctx: RowContext): ReadRow {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return { ok: false, reason: 'not a JSON object' };
  const supplied = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined && v !== ''));
  const { tags: rawTags, phone: rawPhone, lead_id: _ignored, ...fields } = supplied;
  if (rawPhone === undefined) return { ok: false, reason: 'phone: required' };
  const phone = normalizeRecordPhone(rawPhone, ctx.region);
  if (!phone) return { ok: false, reason: `phone: ${INVALID_PHONE}` };
  const tags = tagsOf(rawTags);
  if (typeof tags === 'string') return { ok: false, reason: tags };
  if (ctx.tag && !tags.includes(ctx.tag)) tags.push(ctx.tag);
  try {
    const { standard, custom } = splitRecord(fields, ctx.customKeys);
    delete standard.phone;
    return { ok: true, lead: { phone, standard, custom, tags } };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, reason: err.message };
    throw err;
  }
}

/** The record's tags, deduplicated, or the reason they cannot be read. */
function tagsOf(raw: unknown): string[] | string {
  if (raw === undefined) return [];
  const list = typeof raw === 'string' ? raw.split(TAG_SEPARATOR) : Array.isArray(raw) ? raw : undefined;
  if (!list || list.some((t) => typeof t !== 'string')) return 'tags: a list of tags, or a text of tags separated by commas';
  const tags: string[] = [];
  for (const item of list as string[]) {
    const tag = item.trim();
    if (!tag) continue;
    if (!Tag.safeParse(tag).success) return `tags: ${JSON.stringify(tag.slice(0, 64))}: ${TAG_RULE}`;
    if (!tags.includes(tag)) tags.push(tag);
  }
  return tags;
}
