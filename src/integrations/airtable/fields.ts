import { z } from 'zod';

/** The table a record goes to: the base id and the table's id or name. */
export const tableParams = {
  baseId: z
    .string()
    .regex(/^app[A-Za-z0-9]+$/, 'an Airtable base id starts with app')
    .describe('Base id (appXXXXXXXXXXXXXX)'),
  table: z.string().min(1).describe('Table id (tblXXXXXXXXXXXXXX) or name'),
  fields: z.record(z.string(), z.unknown()).describe('Cell values by field name or id (custom fields go here too)'),
  typecast: z.boolean().default(true).describe('Let Airtable convert strings to select options, dates and numbers'),
};

/** The path of a table's records. */
export function tablePath(baseId: string, table: string): string {
  return `/v0/${encodeURIComponent(baseId)}/${encodeURIComponent(table)}`;
}

/** One record as Airtable returns it. */
export interface AirtableRecord {
  id: string;
  createdTime?: string;
  fields?: Record<string, unknown>;
}

/** The output shape shared by the record actions. */
export const recordOutput = z.object({
  id: z.string().describe('Record id (rec…)'),
  createdTime: z.string().optional(),
  fields: z.record(z.string(), z.unknown()),
});
