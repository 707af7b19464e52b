import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import { eventUuid, scheduledEvent } from './scheduled-event';

const input = z.object({ event: scheduledEvent, reason: z.string().max(10_000).optional().describe('Shown to the invitees') }).strict();

const output = z.object({
  already_canceled: z.boolean(),
  canceled_by: z.string().nullable(),
  reason: z.string().nullable(),
  created_at: z.string().nullable(),
});

/**
 * Cancels a scheduled event and notifies its invitees (`POST /scheduled_events/{uuid}/cancellation`). Calendly refuses
 * a second cancellation with a 403 saying the event is already canceled: that is success, so a replay does no harm.
 */
export const cancelEvent = defineAction({
  key: 'cancel_event',
  title: 'Cancel a scheduled event',
  input,
  output,
  idempotent: true,
  docs: 'https://developer.calendly.com/api-docs/calendly-api/scheduled-events/create-scheduled-event-cancellation',
  async run(p, { http }) {
    try {
      const res = await http.request<{ resource: { canceled_by: string; reason?: string | null; created_at: string } }>({
        method: 'POST',
        path: `/scheduled_events/${encodeURIComponent(eventUuid(p.event))}/cancellation`,
        json: p.reason ? { reason: p.reason } : {},
      });
      const r = res.body.resource;
      return { already_canceled: false, canceled_by: r.canceled_by, reason: r.reason ?? null, created_at: r.created_at };
    } catch (err) {
      if (err instanceof VendorError && err.status === 403 && /already cancel/i.test(err.message))
        return { already_canceled: true, canceled_by: null, reason: null, created_at: null };
      throw err;
    }
  },
});
