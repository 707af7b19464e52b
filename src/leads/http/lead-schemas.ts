import { z } from 'zod';
import { documentAs, NO_NUL_PATTERN, PHONE_PATTERN } from '../../core/documented';
import { CUSTOM_VALUE_JSON, standardFieldShapes } from '../record';
import { CustomFieldDef, Tag } from '../rules';

/** A custom message for a bad value; a missing one still reads `required`. */
const orRequired = (message: string) => ({ error: (issue: { input?: unknown }) => (issue.input === undefined ? 'required' : message) });

const LeadId = z.guid(orRequired('must be a UUID')).describe('Lead UUID');
const PHONE_DESCRIPTION =
  "Phone number. Documented form: a US number as E.164 digits, with '+' or, in workspaces of a +1 region (the default, US), " +
  'without (17145551234). The api also reads other ' +
  "countries and common written forms (+1 (714) 555-1234, 714-555-1234); a number without country code is read in the workspace's " +
  "default region. Stored as E.164 digits without '+'";
const PHONE_JSON = { type: 'string', pattern: PHONE_PATTERN, examples: ['17145551234'] };
const Phone = documentAs(z.string().max(64).describe(PHONE_DESCRIPTION), PHONE_JSON);
/** In a body some clients send the phone as a JSON number; it is read as its digits. */
const BodyPhone = documentAs(z.union([Phone, z.int().positive().transform(String)], orRequired('must be a string')).describe(PHONE_DESCRIPTION), PHONE_JSON);
const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v);
const CustomValues = documentAs(
  z
    .unknown()
    .describe(
      'Any further field: kept as a custom field when the workspace defines its key, otherwise listed in ignored_fields. A value is ' +
        'a string, number, boolean or null, or arrays and objects of them nested at most 4 deep; no NUL characters in strings or keys',
    ),
  CUSTOM_VALUE_JSON,
);

/** The Lead object (custom fields under custom_fields, only when the lead has any). */
export const Lead = z.object({
  lead_id: z.guid().describe('Lead UUID'),
  phone: z.string().describe("E.164 digits without '+', e.g. 17145551234"),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  company: z.string(),
  tags: z.array(z.string()),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  timezone: z.string().optional().describe('IANA time zone, when set'),
  custom_fields: z.record(z.string(), z.unknown()).optional().describe('Stored custom fields, when any'),
});

export const GetLeadQuery = z
  .object({
    phone: z.preprocess(emptyAsAbsent, Phone.optional()),
    lead_id: z.preprocess(emptyAsAbsent, LeadId.optional()),
  })
  .superRefine((q, ctx) => {
    if (q.phone !== undefined && q.lead_id !== undefined) ctx.addIssue({ code: 'custom', message: 'provide phone or lead_id, not both' });
    if (q.phone === undefined && q.lead_id === undefined) ctx.addIssue({ code: 'custom', message: 'provide phone or lead_id' });
  })
  .meta({ oneOf: [{ required: ['phone'] }, { required: ['lead_id'] }] })
  .describe('Exactly one of phone and lead_id');

const FIELD_NAMES = { propertyNames: { pattern: NO_NUL_PATTERN } };

export const CreateLeadBody = z
  .object({ phone: BodyPhone, ...standardFieldShapes })
  .catchall(CustomValues)
  .meta(FIELD_NAMES)
  .describe('A new lead; further fields are custom fields');

export const UpdateLeadBody = z
  .object({ lead_id: LeadId, phone: BodyPhone.optional(), ...standardFieldShapes })
  .catchall(CustomValues)
  .meta(FIELD_NAMES)
  .describe("Fields to change ('' or null clears a standard field, null removes a custom field); custom fields flat at the top level");

export const TagBody = z.object({ lead_id: LeadId, tag: Tag });

const ignored = z.array(z.string()).optional().describe('Fields not stored: neither standard nor defined custom fields');

export const LeadSaved = z.object({
  status: z.literal('success'),
  message: z.string(),
  lead_id: z.guid(),
  lead: Lead,
  ignored_fields: ignored,
});

export const TagResult = z.object({
  status: z.literal('success'),
  lead_id: z.guid(),
  tag: z.string(),
  message: z.string(),
});

export const DefineCustomFieldsBody = z.object({
  fields: z.array(CustomFieldDef).min(1).max(100).describe('Fields to define or relabel; fields not listed stay defined'),
});

export const CustomFieldList = z.object({
  status: z.literal('success'),
  fields: z.array(z.object({ key: z.string(), label: z.string().nullable() })),
});
