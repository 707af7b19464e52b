import { z } from 'zod';
import { defineAction } from '../define';
import { acId } from './ids';

const input = z.object({ contact: acId.describe('Contact id'), tag: acId.describe('Tag id') }).strict();

const output = z.object({ id: z.string() });

/** Adds a tag to a contact. */
export default defineAction({
  key: 'add_tag',
  title: 'Add a tag to a contact',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.activecampaign.com/reference/create-contact-tag',
  async run(p, { http }) {
    const res = await http.request<{ contactTag: { id: string } }>({ method: 'POST', path: '/api/3/contactTags', json: { contactTag: p } });
    return { id: String(res.body.contactTag.id) };
  },
});
