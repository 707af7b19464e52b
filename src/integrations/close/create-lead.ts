import { z } from 'zod';
import { defineAction } from '../define';
import { closeId } from './ids';

const contact = z
  .object({
    name: z.string().max(255).optional(),
    title: z.string().max(255).optional(),
    emails: z.array(z.email()).max(20).optional(),
    phones: z.array(z.string().min(1).max(64)).max(20).optional(),
  })
  .strict();

const input = z
  .object({
    name: z.string().min(1).max(255).describe('Lead (company) name'),
    description: z.string().max(10_000).optional(),
    url: z.url().optional(),
    status_id: closeId('stat').optional().describe('Lead status id'),
    contacts: z.array(contact).max(20).optional().describe('People at the lead'),
    custom_fields: z
      .record(z.string().regex(/^cf_[A-Za-z0-9]+$/, 'a custom field id (cf_…)'), z.unknown())
      .optional()
      .describe('Custom field values by field id (cf_…)'),
  })
  .strict();

const output = z.object({ id: z.string(), contact_ids: z.array(z.string()) });

/** Creates a lead with its contacts; custom fields go in as `custom.cf_…` keys. */
export default defineAction({
  key: 'create_lead',
  title: 'Create a lead',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.close.com/resources/leads/',
  async run({ custom_fields: custom, contacts, ...p }, { http }) {
    const json: Record<string, unknown> = {
      ...p,
      ...(contacts
        ? {
            contacts: contacts.map((c) => ({
              name: c.name,
              title: c.title,
              emails: c.emails?.map((email) => ({ email, type: 'office' })),
              phones: c.phones?.map((phone) => ({ phone, type: 'office' })),
            })),
          }
        : {}),
    };
    for (const [id, value] of Object.entries(custom ?? {})) json[`custom.${id}`] = value;
    const res = await http.request<{ id: string; contacts?: Array<{ id: string }> }>({ method: 'POST', path: '/api/v1/lead/', json });
    return { id: res.body.id, contact_ids: (res.body.contacts ?? []).map((c) => c.id) };
  },
});
