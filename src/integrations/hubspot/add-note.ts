import { z } from 'zod';
import { defineAction } from '../define';
import { association, NOTE_TO, objectType, recordId, type HubspotObject } from './properties';

const input = z
  .object({
    body: z.string().min(1).max(65_536).describe('The note text (HTML allowed)'),
    attach_to: z
      .array(z.object({ type: objectType, id: recordId }).strict())
      .min(1)
      .max(10)
      .describe('Records the note appears on'),
    timestamp: z.iso.datetime({ offset: true }).optional().describe('When the note happened; defaults to now'),
  })
  .strict();

const output = z.object({ id: z.string() });

/** Adds a note (an engagement) on contacts, companies, deals or tickets. */
export default defineAction({
  key: 'add_note',
  title: 'Add a note',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.hubspot.com/docs/api/crm/notes',
  async run(p, { http }) {
    const properties = { hs_note_body: p.body, hs_timestamp: p.timestamp ? new Date(p.timestamp).toISOString() : new Date().toISOString() };
    const associations = p.attach_to.map((r) => association(r.id, NOTE_TO[r.type]));
    const res = await http.request<HubspotObject>({ method: 'POST', path: '/crm/v3/objects/notes', json: { properties, associations } });
    return { id: res.body.id };
  },
});
