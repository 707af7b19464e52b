import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    name: z.string().min(1).max(255),
    email: z.email().optional(),
    phone: z.string().max(64).optional(),
    mobile: z.string().max(64).optional(),
    company_id: z.number().int().positive().optional(),
    description: z.string().max(65_000).optional(),
    tags: z.array(z.string().min(1).max(255)).max(100).optional(),
    custom_fields: z
      .record(z.string().regex(/^[a-z0-9_]+$/, 'a custom field name'), z.unknown())
      .optional()
      .describe('Custom contact field values by name'),
  })
  .strict()
  .refine((p) => p.email ?? p.phone ?? p.mobile, { message: 'give email, phone or mobile', path: ['email'] });

const output = z.object({ id: z.number() });

/** Creates a contact (an existing email or phone is refused with 409). */
export default defineAction({
  key: 'create_contact',
  title: 'Create a contact',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.freshdesk.com/api/#create_contact',
  async run(p, { http }) {
    const res = await http.request<{ id: number }>({ method: 'POST', path: '/api/v2/contacts', json: p });
    return { id: res.body.id };
  },
});
