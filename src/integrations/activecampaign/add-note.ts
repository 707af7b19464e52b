import { z } from 'zod';
import { defineAction } from '../define';
import { acId } from './ids';

const input = z
  .object({
    contact: acId.describe('Contact id the note goes on'),
    note: z.string().min(1).max(65_000).describe('The note text'),
  })
  .strict();

const output = z.object({ id: z.string() });

/** Adds a note to a contact (reltype Subscriber). */
export default defineAction({
  key: 'add_note',
  title: 'Add a note to a contact',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.activecampaign.com/reference/create-a-note',
  async run(p, { http }) {
    const res = await http.request<{ note: { id: string } }>({
      method: 'POST',
      path: '/api/3/notes',
      json: { note: { note: p.note, relid: p.contact, reltype: 'Subscriber' } },
    });
    return { id: String(res.body.note.id) };
  },
});
