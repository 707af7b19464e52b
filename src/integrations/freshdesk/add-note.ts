import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    ticket_id: z.number().int().positive(),
    body: z.string().min(1).max(65_000).describe('Note text (HTML allowed)'),
    private: z.boolean().default(true).describe('Private (agents only) or public'),
    notify_emails: z.array(z.email()).max(50).optional().describe('Agents to notify'),
  })
  .strict();

const output = z.object({ id: z.number() });

/** Adds a note (private by default) to a ticket. */
export default defineAction({
  key: 'add_note',
  title: 'Add a note to a ticket',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.freshdesk.com/api/#add_note_to_a_ticket',
  async run({ ticket_id, ...json }, { http }) {
    const res = await http.request<{ id: number }>({ method: 'POST', path: `/api/v2/tickets/${ticket_id}/notes`, json });
    return { id: res.body.id };
  },
});
