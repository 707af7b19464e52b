import { z } from 'zod';
import { defineAction } from '../define';
import { ghlId } from './location';

const input = z
  .object({
    contactId: ghlId.describe('The contact'),
    tags: z.array(z.string().min(1).max(255)).min(1).max(100).describe('Tags to add (existing tags stay)'),
  })
  .strict();

const output = z.object({ tags: z.array(z.string()) });

/** Adds tags to a contact (adding a tag it has changes nothing). */
export default defineAction({
  key: 'add_tags',
  title: 'Add tags to a contact',
  input,
  output,
  idempotent: true,
  docs: 'https://marketplace.gohighlevel.com/docs/ghl/contacts/add-tags',
  async run(p, { http }) {
    const res = await http.request<{ tags: string[] }>({ method: 'POST', path: `/contacts/${p.contactId}/tags`, json: { tags: p.tags } });
    return { tags: res.body.tags ?? p.tags };
  },
});
