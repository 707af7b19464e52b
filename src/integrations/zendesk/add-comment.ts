import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    ticket_id: z.number().int().positive(),
    body: z.string().min(1).max(65_000).describe('The comment text'),
    public: z.boolean().default(false).describe('Public reply (true) or internal note (false)'),
    status: z.enum(['open', 'pending', 'hold', 'solved']).optional().describe('Set the ticket status with the comment'),
  })
  .strict();

const output = z.object({ id: z.number(), status: z.string().optional() });

/** Adds a comment (an internal note by default) to a ticket. */
export default defineAction({
  key: 'add_comment',
  title: 'Comment on a ticket',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#update-ticket',
  async run(p, { http }) {
    const ticket = { comment: { body: p.body, public: p.public }, ...(p.status ? { status: p.status } : {}) };
    const res = await http.request<{ ticket: { id: number; status?: string } }>({
      method: 'PUT',
      path: `/api/v2/tickets/${p.ticket_id}.json`,
      json: { ticket },
    });
    return { id: res.body.ticket.id, status: res.body.ticket.status };
  },
});
