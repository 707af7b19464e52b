import { z } from 'zod';
import { defineAction } from '../define';
import { eventId } from './event-api';
import { mailbox, mailboxPath } from './mailbox';

const input = z
  .object({
    eventId,
    comment: z.string().max(2000).optional().describe('Sent to the attendees with the cancellation'),
    mailbox,
  })
  .strict();

const output = z.object({ id: z.string(), cancelled: z.literal(true) });

/** Cancels a meeting the mailbox organizes and notifies its attendees (event: cancel; Graph answers 202). */
export default defineAction({
  key: 'cancel_event',
  title: 'Cancel an appointment',
  input,
  output,
  idempotent: true,
  docs: 'https://learn.microsoft.com/en-us/graph/api/event-cancel?view=graph-rest-1.0',
  async run(p, { http }) {
    await http.request({
      method: 'POST',
      path: `${mailboxPath(p.mailbox)}/events/${encodeURIComponent(p.eventId)}/cancel`,
      json: p.comment ? { comment: p.comment } : {},
    });
    return { id: p.eventId, cancelled: true as const };
  },
});
