import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    name: z.string().min(1).max(255),
    email: z.email().optional().describe('Matched against existing users'),
    phone: z.string().max(64).optional(),
    external_id: z.string().max(255).optional().describe('Matched against existing users'),
    user_fields: z.record(z.string().min(1), z.unknown()).optional().describe('Custom user field values by field key'),
  })
  .strict()
  .refine((p) => p.email !== undefined || p.external_id !== undefined, { message: 'give email or external_id to match on', path: ['email'] });

const output = z.object({ id: z.number(), created: z.boolean() });

/** Creates an end user, or updates the one with the same email or external id. */
export default defineAction({
  key: 'upsert_user',
  title: 'Create or update a user',
  input,
  output,
  idempotent: true,
  docs: 'https://developer.zendesk.com/api-reference/ticketing/users/users/#create-or-update-user',
  async run(user, { http }) {
    const res = await http.request<{ user: { id: number } }>({
      method: 'POST',
      path: '/api/v2/users/create_or_update.json',
      json: { user: { ...user, role: 'end-user' } },
    });
    return { id: res.body.user.id, created: res.status === 201 };
  },
});
