import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    contact_id: z
      .string()
      .regex(/^[A-Za-z0-9]+$/, 'a contact id')
      .describe('The contact'),
    body: z.string().min(1).max(65_000).describe('Note text (HTML allowed)'),
    admin_id: z.string().regex(/^\d+$/, 'an admin id').optional().describe('The admin the note is from'),
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
  docs: 'https://developers.intercom.com/docs/references/2.16/rest-api/api.intercom.io/notes/createnote',
  async run({ contact_id, ...json }, { http }) {
    const res = await http.request<{ id: string | number }>({ method: 'POST', path: `/contacts/${contact_id}/notes`, json });
    return { id: String(res.body.id) };
  },
});
