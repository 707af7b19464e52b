import { z } from 'zod';
import { defineAction } from '../define';
import { triggers, ZOHO_API, zohoFields, type ZohoWrite } from './api';

const input = z
  .object({
    Last_Name: z.string().min(1).max(80).describe('Last name (required by Zoho)'),
    First_Name: z.string().max(40).optional(),
    Company: z.string().max(200).optional(),
    Email: z.email().optional(),
    Phone: z.string().max(30).optional(),
    Mobile: z.string().max(30).optional(),
    Lead_Source: z.string().max(120).optional().describe('A value of the Lead Source picklist'),
    Description: z.string().max(32_000).optional(),
    fields: zohoFields.optional(),
    trigger: triggers,
  })
  .strict();

const output = z.object({ id: z.string() });

/** Creates a record in the Leads module. */
export default defineAction({
  key: 'create_lead',
  title: 'Create a lead',
  input,
  output,
  idempotent: false,
  docs: 'https://www.zoho.com/crm/developer/docs/api/v8/insert-records.html',
  async run({ fields, trigger, ...named }, { http }) {
    const res = await http.request<ZohoWrite>({ method: 'POST', path: `${ZOHO_API}/Leads`, json: { data: [{ ...fields, ...named }], trigger } });
    return { id: res.body.data[0]!.details.id };
  },
});
