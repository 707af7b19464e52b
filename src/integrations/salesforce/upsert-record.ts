import { z } from 'zod';
import { defineAction } from '../define';
import { SF_API, sfFields, type SfSaveResult } from './api';

const apiName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'an API name');

const input = z
  .object({
    object: apiName.describe('sObject API name: Lead, Contact, Account or a custom Object__c'),
    external_id_field: apiName.describe('The external-id field matched on (Id, or a custom field marked External ID)'),
    external_id: z.string().min(1).max(255).describe('The value looked up in that field'),
    fields: sfFields.describe('Field values to write, by API name'),
  })
  .strict();

const output = z.object({ id: z.string(), created: z.boolean() });

/** Creates or updates a record by an external id (PATCH on the external-id URL), so a replay writes the same record. */
export default defineAction({
  key: 'upsert_record',
  title: 'Create or update a record by external id',
  input,
  output,
  idempotent: true,
  docs: 'https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/dome_upsert.htm',
  async run(p, { http }) {
    const path = `${SF_API}/sobjects/${p.object}/${p.external_id_field}/${encodeURIComponent(p.external_id)}`;
    const res = await http.request<SfSaveResult>({ method: 'PATCH', path, json: p.fields });
    // 201 with the new id on create; 200 with the id on update (204 on API versions before 46.0).
    return { id: res.body?.id ?? '', created: res.status === 201 };
  },
});
