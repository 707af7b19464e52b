import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    content: z.string().min(1).max(100_000).describe('Note text (HTML allowed)'),
    person_id: z.number().int().positive().optional(),
    deal_id: z.number().int().positive().optional(),
    org_id: z.number().int().positive().optional(),
    lead_id: z.uuid().optional(),
    pinned_to_person_flag: z.boolean().optional(),
  })
  .strict()
  .refine((p) => p.person_id ?? p.deal_id ?? p.org_id ?? p.lead_id, {
    message: 'attach the note to a person_id, deal_id, org_id or lead_id',
    path: ['person_id'],
  });

const output = z.object({ id: z.number() });

/** Adds a note to a person, deal, organization or lead. */
export default defineAction({
  key: 'add_note',
  title: 'Add a note',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.pipedrive.com/docs/api/v1/Notes#addNote',
  async run({ pinned_to_person_flag: pinned, ...p }, { http }) {
    const json = { ...p, ...(pinned === undefined ? {} : { pinned_to_person_flag: pinned ? 1 : 0 }) };
    const res = await http.request<{ data: { id: number } }>({ method: 'POST', path: '/api/v1/notes', json });
    return { id: res.body.data.id };
  },
});
