import { z } from 'zod';
import { defineAction } from '../define';
import { triggers, ZOHO_API, zohoFields, type ZohoWrite } from './api';

const input = z
  .object({
    Last_Name: z.string().min(1).max(80).describe('Last name (required by Zoho)'),
    First_Name: z.string().max(40).optional(),
    Email: z.email().optional(),
    Phone: z.string().max(30).optional(),
    Mobile: z.string().max(30).optional(),
    Description: z.string().max(32_000).optional(),
    fields: zohoFields.optional(),
    duplicate_check_fields: z
      .array(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/))
      .min(1)
      .default(['Email'])
      .describe('Fields that identify an existing contact'),
    trigger: triggers,
  })
  .strict();

const output = z.object({ id: z.string(), action: z.enum(['insert', 'update']) });

/** Creates a contact, or updates the one matching the duplicate-check fields (Email by default). */
export default defineAction({
  key: 'upsert_contact',
  title: 'Create or update a contact',
  input,
  output,
  idempotent: true,
  docs: 'https://www.zoho.com/crm/developer/docs/api/v8/upsert-records.html',
  async run({ fields, trigger, duplicate_check_fields, ...named }, { http }) {
    const json = { data: [{ ...fields, ...named }], duplicate_check_fields, trigger };
    const res = await http.request<ZohoWrite>({ method: 'POST', path: `${ZOHO_API}/Contacts/upsert`, json });
    const row = res.body.data[0]!;
    return { id: row.details.id, action: row.action ?? 'insert' };
  },
});
