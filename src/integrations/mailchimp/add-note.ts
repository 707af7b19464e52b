import { z } from 'zod';
import { defineAction } from '../define';
import { listId, memberPath } from './member';

const input = z
  .object({
    list_id: listId,
    email_address: z.email().describe('The member'),
    note: z.string().min(1).max(1000).describe('The note (Mailchimp keeps up to 1,000 characters)'),
  })
  .strict();

const output = z.object({ id: z.number() });

/** Adds a note to a member. */
export default defineAction({
  key: 'add_note',
  title: 'Add a note to an audience member',
  input,
  output,
  idempotent: false,
  docs: 'https://mailchimp.com/developer/marketing/api/list-member-notes/add-member-note/',
  async run(p, { http }) {
    const res = await http.request<{ id: number }>({ method: 'POST', path: `${memberPath(p.list_id, p.email_address)}/notes`, json: { note: p.note } });
    return { id: res.body.id };
  },
});
