import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    subject: z.string().min(1).max(255),
    comment: z.string().min(1).max(65_000).describe('The first comment (the description)'),
    public: z.boolean().default(true).describe('Whether the requester sees the first comment'),
    requester: z
      .object({ name: z.string().min(1).max(255).optional(), email: z.email() })
      .strict()
      .optional()
      .describe('Who the ticket is from (created when new)'),
    requester_id: z.number().int().positive().optional(),
    priority: z.enum(['urgent', 'high', 'normal', 'low']).optional(),
    type: z.enum(['problem', 'incident', 'question', 'task']).optional(),
    status: z.enum(['new', 'open', 'pending', 'hold', 'solved']).optional(),
    tags: z.array(z.string().min(1).max(255)).max(100).optional(),
    group_id: z.number().int().positive().optional(),
    assignee_id: z.number().int().positive().optional(),
    external_id: z.string().max(255).optional(),
    custom_field_values: z.record(z.string().regex(/^\d+$/, 'a ticket field id'), z.unknown()).optional().describe('Custom ticket field values by field id'),
  })
  .strict();

const output = z.object({ id: z.number(), status: z.string().optional() });

/** Creates a ticket; the run's idempotency key goes in `Idempotency-Key`, so a retried create makes one ticket. */
export default defineAction({
  key: 'create_ticket',
  title: 'Create a ticket',
  input,
  output,
  idempotent: true,
  idempotencyHeader: 'Idempotency-Key',
  docs: 'https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#create-ticket',
  async run({ comment, public: isPublic, custom_field_values: values, ...rest }, { http, idempotencyKey }) {
    const custom_fields = values ? Object.entries(values).map(([id, value]) => ({ id: Number(id), value })) : undefined;
    const ticket = { ...rest, comment: { body: comment, public: isPublic }, custom_fields };
    const res = await http.request<{ ticket: { id: number; status?: string } }>({
      method: 'POST',
      path: '/api/v2/tickets.json',
      json: { ticket },
      headers: { 'idempotency-key': idempotencyKey },
    });
    return { id: res.body.ticket.id, status: res.body.ticket.status };
  },
});
