import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z
  .object({
    role: z.enum(['user', 'lead']).default('lead').describe('user (signed up) or lead'),
    email: z.email().optional(),
    phone: z.string().max(64).optional(),
    name: z.string().max(255).optional(),
    external_id: z.string().max(255).optional().describe('Your id for the person'),
    signed_up_at: z.number().int().positive().optional().describe('Unix seconds'),
    owner_id: z.number().int().positive().optional().describe('Admin who owns the contact'),
    unsubscribed_from_emails: z.boolean().optional(),
    custom_attributes: z
      .record(z.string().min(1), z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .optional()
      .describe('Custom data attributes by name'),
  })
  .strict()
  .refine((p) => p.email !== undefined || p.external_id !== undefined || p.role === 'lead', { message: 'a user needs email or external_id', path: ['email'] });

const output = z.object({ id: z.string(), existing: z.boolean() });

/** Creates a contact; one that already exists (409 naming its id) is returned as `existing`, so a replay creates nothing twice. */
export default defineAction({
  key: 'create_contact',
  title: 'Create a contact',
  input,
  output,
  idempotent: false,
  // Intercom keeps one user per email or external_id (409 naming it); leads may repeat.
  idempotentFor: { inputs: 'role user', test: (p) => p.role === 'user' },
  docs: 'https://developers.intercom.com/docs/references/2.16/rest-api/api.intercom.io/contacts/createcontact',
  async run(p, { http }) {
    try {
      const res = await http.request<{ id: string }>({ method: 'POST', path: '/contacts', json: p });
      return { id: res.body.id, existing: false };
    } catch (err) {
      const existing = err instanceof VendorError && err.status === 409 ? /already exists with id=([A-Za-z0-9]+)/.exec(err.message)?.[1] : undefined;
      if (existing) return { id: existing, existing: true };
      throw err;
    }
  },
});
