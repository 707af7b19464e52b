import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    email: z.email().describe('The contact’s email (the match key)'),
    firstName: z.string().max(255).optional(),
    lastName: z.string().max(255).optional(),
    phone: z.string().max(64).optional(),
    custom_field_values: z
      .record(z.string().regex(/^\d+$/, 'a custom field id'), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .describe('Custom field values by field id (Settings › Fields)'),
  })
  .strict();

const output = z.object({ id: z.string() });

/** Creates the contact, or updates the one with that email (contact/sync). */
export default defineAction({
  key: 'sync_contact',
  title: 'Create or update a contact',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.activecampaign.com/reference/sync-a-contacts-data',
  async run({ custom_field_values: values, ...contact }, { http }) {
    const fieldValues = values ? Object.entries(values).map(([field, value]) => ({ field, value: String(value) })) : undefined;
    const res = await http.request<{ contact: { id: string } }>({
      method: 'POST',
      path: '/api/3/contact/sync',
      json: { contact: { ...contact, fieldValues } },
    });
    return { id: String(res.body.contact.id) };
  },
});
