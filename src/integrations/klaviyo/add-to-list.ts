import { z } from 'zod';
import { defineAction } from '../define';
import { JSON_API } from './profile';

const input = z
  .object({
    list_id: z
      .string()
      .regex(/^[A-Za-z0-9]{6}$/, 'a list id')
      .describe('List id'),
    profile_ids: z
      .array(z.string().regex(/^[A-Za-z0-9]{26}$/, 'a profile id'))
      .min(1)
      .max(1000)
      .describe('Profiles to add'),
  })
  .strict();

const output = z.object({ added: z.number() });

/** Adds profiles to a list (no consent change; adding a member again changes nothing). */
export default defineAction({
  key: 'add_to_list',
  title: 'Add profiles to a list',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.klaviyo.com/en/reference/add_profiles_to_list',
  async run(p, { http }) {
    const data = p.profile_ids.map((id) => ({ type: 'profile', id }));
    await http.request({ method: 'POST', path: `/api/lists/${p.list_id}/relationships/profiles`, json: { data }, headers: JSON_API });
    return { added: data.length };
  },
});
