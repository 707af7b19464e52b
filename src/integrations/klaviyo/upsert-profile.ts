import { z } from 'zod';
import { defineAction } from '../define';
import { hasIdentifier, JSON_API, profileAttributes } from './profile';

const input = z
  .object(profileAttributes)
  .strict()
  .refine(hasIdentifier, { message: 'give email, phone_number or external_id', path: ['email'] });

const output = z.object({ id: z.string(), created: z.boolean() });

/** Creates a profile or updates the one with the same email, phone or external id (profile-import). */
export default defineAction({
  key: 'upsert_profile',
  title: 'Create or update a profile',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.klaviyo.com/en/reference/create_or_update_profile',
  async run(attributes, { http }) {
    const res = await http.request<{ data: { id: string } }>({
      method: 'POST',
      path: '/api/profile-import',
      json: { data: { type: 'profile', attributes } },
      headers: JSON_API,
    });
    return { id: res.body.data.id, created: res.status === 201 };
  },
});
