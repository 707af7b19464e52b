import { z } from 'zod';
import { defineAction } from '../define';
import { ghlId } from './location';

const input = z
  .object({
    contactId: ghlId.describe('The contact'),
    body: z.string().min(1).max(65_000).describe('The note text'),
    userId: ghlId.optional().describe('The user the note is attributed to'),
  })
  .strict();

const output = z.object({ id: z.string() });

/** Adds a note to a contact. */
export default defineAction({
  key: 'add_note',
  title: 'Add a note to a contact',
  input,
  output,
  idempotent: false,
  docs: 'https://marketplace.gohighlevel.com/docs/ghl/contacts/create-note',
  async run({ contactId, ...json }, { http }) {
    const res = await http.request<{ note: { id: string } }>({ method: 'POST', path: `/contacts/${contactId}/notes`, json });
    return { id: res.body.note.id };
  },
});
