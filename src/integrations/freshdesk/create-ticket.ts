import { z } from 'zod';
import { defineAction } from '../define';

const PRIORITY = { low: 1, medium: 2, high: 3, urgent: 4 } as const;
const STATUS = { open: 2, pending: 3, resolved: 4, closed: 5 } as const;
const SOURCE = { email: 1, portal: 2, phone: 3, chat: 7, feedback_widget: 9, outbound_email: 10 } as const;

const input = z
  .object({
    subject: z.string().min(1).max(255),
    description: z.string().min(1).max(65_000).describe('The ticket body (HTML allowed)'),
    email: z.email().optional().describe('Requester email (created as a contact when new)'),
    phone: z.string().max(64).optional().describe('Requester phone; needs name when the contact is new'),
    name: z.string().max(255).optional().describe('Requester name'),
    requester_id: z.number().int().positive().optional(),
    priority: z.enum(['low', 'medium', 'high', 'urgent']).default('low'),
    status: z.enum(['open', 'pending', 'resolved', 'closed']).default('open'),
    source: z.enum(['email', 'portal', 'phone', 'chat', 'feedback_widget', 'outbound_email']).default('phone'),
    type: z.string().max(255).optional().describe('A value of the Type field'),
    tags: z.array(z.string().min(1).max(255)).max(100).optional(),
    group_id: z.number().int().positive().optional(),
    custom_fields: z
      .record(z.string().regex(/^cf_[a-z0-9_]+$/, 'a custom field name (cf_…)'), z.unknown())
      .optional()
      .describe('Custom field values by name (cf_…)'),
  })
  .strict()
  .refine((p) => p.email ?? p.phone ?? p.requester_id, { message: 'give the requester: email, phone or requester_id', path: ['email'] });

const output = z.object({ id: z.number() });

/** Creates a ticket (priority, status and source as Freshdesk's numbers; a phone call by default). */
export default defineAction({
  key: 'create_ticket',
  title: 'Create a ticket',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.freshdesk.com/api/#create_ticket',
  async run(p, { http }) {
    const json = { ...p, priority: PRIORITY[p.priority], status: STATUS[p.status], source: SOURCE[p.source] };
    const res = await http.request<{ id: number }>({ method: 'POST', path: '/api/v2/tickets', json });
    return { id: res.body.id };
  },
});
