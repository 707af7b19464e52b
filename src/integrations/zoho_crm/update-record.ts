import { z } from 'zod';
import { defineAction } from '../define';
import { triggers, ZOHO_API, zohoFields, type ZohoWrite } from './api';

const input = z
  .object({
    module: z.enum(['Leads', 'Contacts', 'Accounts', 'Deals']).describe('The module of the record'),
    id: z.string().regex(/^\d+$/, 'a Zoho record id'),
    fields: zohoFields.refine((f) => Object.keys(f).length > 0, 'give at least one field').describe('Field values to write, by API name'),
    trigger: triggers,
  })
  .strict();

const output = z.object({ id: z.string() });

/** Updates fields of a record by id (PUT on the record; only the fields given change). */
export default defineAction({
  key: 'update_record',
  title: 'Update a record',
  input,
  output,
  idempotent: true,
  docs: 'https://www.zoho.com/crm/developer/docs/api/v8/update-specific-record.html',
  async run(p, { http }) {
    const res = await http.request<ZohoWrite>({ method: 'PUT', path: `${ZOHO_API}/${p.module}/${p.id}`, json: { data: [p.fields], trigger: p.trigger } });
    return { id: res.body.data[0]!.details.id };
  },
});
