import { z } from 'zod';
import { defineAction } from '../define';
import { eventUuid, scheduledEvent } from './scheduled-event';

const input = z.object({ event: scheduledEvent, reason: z.string().max(10_000).optional().describe('Shown to the invitees') }).strict();

const output = z.object({ canceled_by: z.string(), reason: z.string().nullable(), created_at: z.string() });

/** Cancels a scheduled event and notifies its invitees (`POST /scheduled_events/{uuid}/cancellation`). */
export const cancelEvent = defineAction({
  key: 'cancel_event',
  title: 'Cancel a scheduled event',
  input,
  output,
  // Calendly refuses a second cancellation (403 "already canceled"): nothing is done twice.
  idempotent: true,
  docs: 'https://developer.calendly.com/api-docs/calendly-api/scheduled-events/create-scheduled-event-cancellation',
  async run(p, { http }) {
    const res = await http.request<{ resource: { canceled_by: string; reason?: string | null; created_at: string } }>({
      method: 'POST',
      path: `/scheduled_events/${encodeURIComponent(eventUuid(p.event))}/cancellation`,
      json: p.reason ? { reason: p.reason } : {},
    });
    const r = res.body.resource;
    return { canceled_by: r.canceled_by, reason: r.reason ?? null, created_at: r.created_at };
  },
});
