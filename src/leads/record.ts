import { z } from 'zod';
import type { Queryable } from '../db/pool';
import { customFieldKeys, STANDARD_FIELDS, type LeadFields } from './db/leads';
import { documentAs, EMAIL_JSON, NO_NUL_PATTERN, TIME_ZONES } from '../core/documented';
import { DomainError } from '../core/errors';
import { describeIssues } from '../core/validation';
import { normalizePhone } from '../core/phone';

/** A lead record (create body, update body, sendtoworkflow `record`) split by what happens to each field. */
export interface SplitRecord {
  /** Standard fields, validated: trimmed strings, or null to clear. `phone` is as given, as text (normalise it separately). */
  standard: LeadFields & { phone?: string };
  /** Fields the workspace defines as custom fields; a null value removes the field on update. */
  custom: Record<string, unknown>;
  /** Field names that are neither standard nor defined custom fields: not stored, reported back. */
  ignored: string[];
}

const invalid = (message: string) => new DomainError('invalid_fields', message);

// Postgres text and jsonb cannot hold NUL; jsonb rejects unpaired UTF-16 surrogates.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_RULE = 'must not contain NUL characters or unpaired surrogates';
// Custom values nest at most this deep (a value at depth MAX_DEPTH may be an empty array or object, nothing deeper):
// deep enough for real data, and shallow enough for the OpenAPI document to state the rule exactly (CUSTOM_VALUE_JSON).
const MAX_DEPTH = 4;

/** A custom field's value as JSON Schema: what checkStorable accepts, level by level (no recursion, for generators). */
export const CUSTOM_VALUE_JSON: Record<string, unknown> = (function level(depth: number): Record<string, unknown> {
  const scalar = [{ type: 'string', pattern: NO_NUL_PATTERN }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }];
  const inner = depth < MAX_DEPTH ? level(depth + 1) : undefined;
  return {
    anyOf: [
      ...scalar,
      inner ? { type: 'array', items: inner } : { type: 'array', maxItems: 0 },
      inner ? { type: 'object', propertyNames: { pattern: NO_NUL_PATTERN }, additionalProperties: inner } : { type: 'object', maxProperties: 0 },
    ],
  };
})(0);

const text = (max: number) =>
  documentAs(
    z
      .string()
      .max(max)
      .refine((s) => !UNSTORABLE.test(s), UNSTORABLE_RULE),
    { type: 'string', maxLength: max, pattern: NO_NUL_PATTERN },
  )
    .transform((s) => s.trim() || null)
    .nullable();

const timezoneText = documentAs(z.string().max(64), { type: 'string', enum: ['', ...TIME_ZONES], examples: ['America/New_York'] });
const timezone = timezoneText
  .transform((tz, ctx) => {
    if (!tz.trim()) return null;
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: tz.trim() }).resolvedOptions().timeZone;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not a known IANA time zone (e.g. America/New_York)' });
      return z.NEVER;
    }
  })
  .nullable();

/** Standard lead fields as a caller may send them ('' or null clears a field on update). */
export const standardFieldShapes = {
  first_name: text(255).optional().describe('First name'),
  last_name: text(255).optional().describe('Last name'),
  email: documentAs(
    z
      .string()
      .trim()
      .max(320)
      .pipe(z.union([z.literal(''), z.email()])),
    {
      anyOf: [{ const: '' }, { ...EMAIL_JSON, maxLength: 320 }],
      examples: ['ann@example.com'],
    },
  )
    .transform((s) => s || null)
    .nullable()
    .optional()
    .describe('Email address'),
  company: text(255).optional().describe('Company'),
  timezone: timezone.optional().describe('IANA time zone of the lead (e.g. America/New_York), used for call windows'),
};
const StandardFields = z.object(standardFieldShapes);

/**
 * Splits a record into standard fields (validated; a bad value is an invalid_fields DomainError naming the field),
 * custom fields the workspace defines (definedKeys), and ignored field names. A nested `custom_fields` object (as GET
 * returns it) counts like flat fields.
 */
export function splitRecord(record: Record<string, unknown>, definedKeys: Set<string>): SplitRecord {
  const standardInput: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  const ignored: string[] = [];
  const nested = record.custom_fields;
  const entries = Object.entries(record).filter(([k]) => k !== 'custom_fields' || !isPlainObject(nested));
  if (isPlainObject(nested)) entries.push(...Object.entries(nested));
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    if (UNSTORABLE.test(key)) throw invalid(`record: field names ${UNSTORABLE_RULE}`);
    if (key === 'phone' || (STANDARD_FIELDS as readonly string[]).includes(key)) standardInput[key] = value;
    else if (definedKeys.has(key)) custom[key] = checkStorable(key, value);
    else {
      // Checked although ignored: one rule for every further field, the one the OpenAPI document states.
      checkStorable(key, value);
      ignored.push(key);
    }
  }
  const { phone, ...rest } = standardInput;
  const phoneText = typeof phone === 'number' && Number.isSafeInteger(phone) && phone > 0 ? String(phone) : phone;
  if (phoneText !== undefined && typeof phoneText !== 'string') throw invalid('phone: must be a string');
  const parsed = StandardFields.safeParse(rest);
  if (!parsed.success) throw invalid(describeIssues(parsed.error.issues, 'record'));
  const standard: SplitRecord['standard'] = stripUndefined(parsed.data);
  if (typeof phoneText === 'string') standard.phone = phoneText;
  return { standard, custom, ignored };
}

const NOT_CUSTOM: ReadonlySet<string> = new Set(['phone', 'lead_id', ...STANDARD_FIELDS]);

/** splitRecord with the workspace's custom-field definitions, read only when the record has a field beyond the standard ones. */
export async function splitRecordFor(db: Queryable, workspaceId: string, record: Record<string, unknown>): Promise<SplitRecord> {
  const extra = Object.keys(record).some((k) => !NOT_CUSTOM.has(k));
  return splitRecord(record, extra ? await customFieldKeys(db, workspaceId) : new Set());
}

/** Normalises a record's phone (a string, or a number as some clients send) with the workspace's region; undefined when invalid. */
export function normalizeRecordPhone(phone: unknown, region: string): string | undefined {
  if (typeof phone === 'number' && Number.isSafeInteger(phone) && phone > 0) return normalizePhone(String(phone), region);
  if (typeof phone !== 'string') return undefined;
  return normalizePhone(phone, region);
}

/** The message after `phone: ` when a phone cannot be read. */
export const INVALID_PHONE = 'not a valid phone number (include the country code, e.g. 17145551234, or use the workspace region format)';

function checkStorable(key: string, value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw invalid(`${key}: nested more than ${MAX_DEPTH} levels deep`);
  if (typeof value === 'string') {
    if (UNSTORABLE.test(value)) throw invalid(`${key}: ${UNSTORABLE_RULE}`);
  } else if (Array.isArray(value)) {
    for (const item of value) checkStorable(key, item, depth + 1);
  } else if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (UNSTORABLE.test(k)) throw invalid(`${key}: ${UNSTORABLE_RULE}`);
      checkStorable(key, v, depth + 1);
    }
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stripUndefined<T extends Record<string, unknown>>(obj: T): T {
  for (const key of Object.keys(obj)) if (obj[key] === undefined) delete obj[key];
  return obj;
}
