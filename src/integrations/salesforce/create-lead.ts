import { z } from 'zod';
import { defineAction } from '../define';
import { SF_API, sfFields, type SfSaveResult } from './api';

const input = z
  .object({
    LastName: z.string().min(1).max(80).describe('Last name (required by Salesforce)'),
    Company: z.string().min(1).max(255).describe('Company (required by Salesforce)'),
    FirstName: z.string().max(40).optional(),
    Email: z.email().optional(),
    Phone: z.string().max(40).optional(),
    MobilePhone: z.string().max(40).optional(),
    Title: z.string().max(128).optional(),
    LeadSource: z.string().max(255).optional().describe('A value of the LeadSource picklist'),
    Status: z.string().max(255).optional().describe('A value of the lead Status picklist'),
    Description: z.string().max(32_000).optional(),
    fields: sfFields.optional(),
  })
  .strict();

const output = z.object({ id: z.string() });

/** Creates a Lead (sObject create). */
export default defineAction({
  key: 'create_lead',
  title: 'Create a lead',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/dome_sobject_create.htm',
  async run({ fields, ...named }, { http }) {
    const res = await http.request<SfSaveResult>({ method: 'POST', path: `${SF_API}/sobjects/Lead`, json: { ...fields, ...named } });
    return { id: res.body.id };
  },
});
