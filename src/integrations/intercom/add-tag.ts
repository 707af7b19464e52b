import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    contact_id: z
      .string()
      .regex(/^[A-Za-z0-9]+$/, 'a contact id')
      .describe('The contact'),
    tag_id: z.string().regex(/^\d+$/, 'a tag id').describe('The tag'),
  })
  .strict();

const output = z.object({ id: z.string(), name: z.string() });

/** Tags a contact (tagging twice changes nothing). */
export default defineAction({
  key: 'add_tag',
  title: 'Tag a contact',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.intercom.com/docs/references/2.16/rest-api/api.intercom.io/tags/attachtagtocontact',
  async run(p, { http }) {
    const res = await http.request<{ id: string; name: string }>({ method: 'POST', path: `/contacts/${p.contact_id}/tags`, json: { id: p.tag_id } });
    return { id: String(res.body.id), name: res.body.name };
  },
});
