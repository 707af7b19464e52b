import { z } from 'zod';
import { defineAction } from '../define';
import { SF_API, sfFields } from './api';

const input = z
  .object({
    object: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'an API name')
      .describe('sObject API name: Lead, Contact, Opportunity or a custom Object__c'),
    id: z.string().regex(/^[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?$/, 'a Salesforce record id'),
    fields: sfFields.refine((f) => Object.keys(f).length > 0, 'give at least one field').describe('Field values to write, by API name'),
  })
  .strict();

const output = z.object({ id: z.string() });

/** Updates fields of an existing record by id (sObject rows PATCH; Salesforce answers 204). */
export default defineAction({
  key: 'update_record',
  title: 'Update a record',
  input,
  output,
  idempotent: true,
  docs: 'https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/dome_update_fields.htm',
  async run(p, { http }) {
    await http.request({ method: 'PATCH', path: `${SF_API}/sobjects/${p.object}/${p.id}`, json: p.fields });
    return { id: p.id };
  },
});
