import { z } from 'zod';
import { defineAction } from '../define';
import { ZOHO_API, type ZohoWrite } from './api';

const input = z
  .object({
    parent_module: z.enum(['Leads', 'Contacts', 'Accounts', 'Deals']).describe('The module of the record the note goes on'),
    parent_id: z.string().regex(/^\d+$/, 'a Zoho record id').describe('The record id'),
    Note_Title: z.string().max(120).optional(),
    Note_Content: z.string().min(1).max(32_000).describe('The note text'),
  })
  .strict();

const output = z.object({ id: z.string() });

/** Adds a note to a lead, contact, account or deal. */
export default defineAction({
  key: 'add_note',
  title: 'Add a note',
  input,
  output,
  idempotent: false,
  docs: 'https://www.zoho.com/crm/developer/docs/api/v8/create-notes.html',
  async run(p, { http }) {
    const note = { Note_Title: p.Note_Title, Note_Content: p.Note_Content, Parent_Id: { module: { api_name: p.parent_module }, id: p.parent_id } };
    const res = await http.request<ZohoWrite>({ method: 'POST', path: `${ZOHO_API}/Notes`, json: { data: [note] } });
    return { id: res.body.data[0]!.details.id };
  },
});
