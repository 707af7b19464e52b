import { z } from 'zod';
import { defineAction } from '../define';
import { closeId } from './ids';

const input = z
  .object({
    lead_id: closeId('lead').describe('The lead the note goes on'),
    contact_id: closeId('cont').optional(),
    note: z.string().min(1).max(100_000).describe('The note text'),
  })
  .strict();

const output = z.object({ id: z.string() });

/** Adds a note activity to a lead. */
export default defineAction({
  key: 'add_note',
  title: 'Add a note',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.close.com/resources/activities/note/',
  async run(p, { http }) {
    const res = await http.request<{ id: string }>({ method: 'POST', path: '/api/v1/activity/note/', json: p });
    return { id: res.body.id };
  },
});
