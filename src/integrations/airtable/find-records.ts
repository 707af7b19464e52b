import { z } from 'zod';
import { defineAction } from '../define';
import { AirtableRecord, recordOutput, tablePath } from './fields';

/** Airtable returns at most 100 records per page. */
const PAGE_SIZE = 100;

const input = z
  .object({
    baseId: z
      .string()
      .regex(/^app[A-Za-z0-9]+$/, 'an Airtable base id starts with app')
      .describe('Base id (appXXXXXXXXXXXXXX)'),
    table: z.string().min(1).describe('Table id (tblXXXXXXXXXXXXXX) or name'),
    where: z
      .record(z.string().regex(/^[^{}]+$/, 'field names in where cannot hold braces'), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .describe('Field values the records must equal ({"Phone":"+15550100"}); combined with AND'),
    filterByFormula: z.string().min(1).optional().describe('An Airtable formula instead of where (records for which it is truthy)'),
    view: z.string().min(1).optional().describe('Only records of this view, in its order'),
    maxRecords: z.number().int().min(1).max(1000).default(100).describe('At most this many records (pages are followed up to it)'),
  })
  .refine((v) => !(v.where && v.filterByFormula), { message: 'give where or filterByFormula, not both', path: ['filterByFormula'] });

const output = z.object({ records: z.array(recordOutput), truncated: z.boolean().describe('More records matched than maxRecords') });

/** A string as an Airtable formula literal. */
function literal(value: string | number | boolean): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE()' : 'FALSE()';
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** `where` as a formula: every field equals its value. */
function whereFormula(where: Record<string, string | number | boolean>): string {
  const terms = Object.entries(where).map(([field, value]) => `{${field}}=${literal(value)}`);
  return terms.length === 1 ? terms[0]! : `AND(${terms.join(',')})`;
}

/** Looks records up (`GET /v0/{baseId}/{table}` with filterByFormula), following `offset` pages up to maxRecords. */
export const findRecords = defineAction({
  key: 'find_records',
  title: 'Find records',
  input,
  output,
  idempotent: true,
  docs: 'https://airtable.com/developers/web/api/list-records',
  async run(params, { http }) {
    const formula = params.filterByFormula ?? (params.where && Object.keys(params.where).length > 0 ? whereFormula(params.where) : undefined);
    const records: AirtableRecord[] = [];
    let offset: string | undefined;
    do {
      const res = await http.request<{ records?: AirtableRecord[]; offset?: string }>({
        method: 'GET',
        path: tablePath(params.baseId, params.table),
        query: { filterByFormula: formula, view: params.view, pageSize: PAGE_SIZE, offset },
      });
      records.push(...(res.body.records ?? []));
      offset = res.body.offset;
    } while (offset && records.length < params.maxRecords);
    return {
      records: records.slice(0, params.maxRecords).map((r) => ({ id: r.id, createdTime: r.createdTime, fields: r.fields ?? {} })),
      truncated: records.length > params.maxRecords || offset !== undefined,
    };
  },
});
