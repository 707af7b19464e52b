import { z } from 'zod';
import { documentAs, NO_NUL_PATTERN } from '../core/documented';

/** Standard lead fields a caller may set (phone is the identity and is set separately). */
export const STANDARD_FIELDS = ['first_name', 'last_name', 'email', 'company', 'timezone'] as const;
export type StandardField = (typeof STANDARD_FIELDS)[number];

/** A lead's values as its row holds them (a stored lead, or a record a journey preview runs on). */
export interface LeadValues {
  phone: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  company: string | null;
  timezone: string | null;
  tags: string[];
  custom_fields: Record<string, unknown>;
}

// One schema per rule: the REST API, journeys and the CLI all take their tag and field-name rules from here.

export const TAG_RULE = 'letters, digits and underscores only, 1–64 characters';
/** A tag name, as every path that sets, removes or tests a tag accepts it. */
export const Tag = z
  .string()
  .regex(/^[A-Za-z0-9_]{1,64}$/, TAG_RULE)
  .describe('Tag name: letters, digits and underscores (multi-word tags use underscores, e.g. High_Priority)');

/** Lead field names (standard and custom): lowercase letters, digits and underscores, starting with a letter. */
const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]{0,63}$/;
const CUSTOM_FIELD_KEY_RULE = 'lowercase letters, digits and underscores, starting with a letter, 1–64 characters';
/** A lead field name as a journey names it (update_lead, branch conditions): a name a lead field can have. */
export const FieldKey = z.string().regex(CUSTOM_FIELD_KEY, CUSTOM_FIELD_KEY_RULE);

/** Names a custom field may not take: the standard fields and the names the lead bodies use themselves. */
export const RESERVED_FIELD_KEYS: ReadonlySet<string> = new Set([
  'phone',
  ...STANDARD_FIELDS,
  'lead_id',
  'id',
  'workspace_id',
  'tags',
  'tag',
  'custom_fields',
  'created_at',
  'updated_at',
  'status',
  'message',
  'ignored_fields',
  'record',
  'workflow_id',
]);

/** The key of a custom field definition: a field name that is not standard or reserved. */
const CustomFieldKey = documentAs(
  FieldKey.refine((k) => !RESERVED_FIELD_KEYS.has(k), 'is a standard lead field or a reserved name').describe(`Field key: ${CUSTOM_FIELD_KEY_RULE}`),
  { type: 'string', pattern: CUSTOM_FIELD_KEY.source, not: { enum: [...RESERVED_FIELD_KEYS] }, examples: ['plan'] },
);

/** A custom field definition (REST and CLI). */
export const CustomFieldDef = z.object({
  key: CustomFieldKey,
  label: documentAs(
    z
      .string()
      .max(200)
      .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
    { type: 'string', maxLength: 200, pattern: NO_NUL_PATTERN, examples: ['Plan'] },
  )
    .nullable()
    .optional()
    .describe('Display label'),
});
