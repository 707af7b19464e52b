import { z } from 'zod';
import { defineAction } from '../define';
import { hasIdentifier, JSON_API, profileAttributes } from './profile';

const input = z
  .object(profileAttributes)
  .strict()
  .refine(hasIdentifier, { message: 'give email, phone_number or external_id', path: ['email'] });

const output = z.object({ id: z.string() });

/** Creates a profile; an existing one is refused with 409 (use upsert_profile to update). */
export default defineAction({
  key: 'create_profile',
  title: 'Create a profile',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.klaviyo.com/en/reference/create_profile',
  async run(attributes, { http }) {
    const res = await http.request<{ data: { id: string } }>({
      method: 'POST',
      path: '/api/profiles',
      json: { data: { type: 'profile', attributes } },
      headers: JSON_API,
    });
    return { id: res.body.data.id };
  },
});
