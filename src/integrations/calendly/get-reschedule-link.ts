import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import { eventUuid, scheduledEvent } from './scheduled-event';

const input = z.object({ event: scheduledEvent, email: z.email().optional().describe("Which invitee's link (default the first active one)") }).strict();

const output = z.object({ invitee: z.string(), reschedule_url: z.string(), cancel_url: z.string() });

interface Invitee {
  uri: string;
  email: string;
  status: string;
  reschedule_url: string;
  cancel_url: string;
}

/**
 * The invitee's reschedule link of a scheduled event (`GET /scheduled_events/{uuid}/invitees`). Calendly's API cannot
 * move a booking itself: the invitee picks the new time on this page, so the agent sends the link.
 */
export const getRescheduleLink = defineAction({
  key: 'get_reschedule_link',
  title: 'Get the reschedule link',
  input,
  output,
  idempotent: true,
  docs: 'https://developer.calendly.com/api-docs/calendly-api/scheduled-events/list-event-invitees',
  async run(p, { http }) {
    const query = { status: 'active', ...(p.email ? { email: p.email } : {}) };
    const res = await http.request<{ collection: Invitee[] }>({
      method: 'GET',
      path: `/scheduled_events/${encodeURIComponent(eventUuid(p.event))}/invitees`,
      query,
    });
    const invitee = res.body.collection[0];
    if (!invitee)
      throw new VendorError('vendor_not_found', `Calendly has no active invitee ${p.email ? 'with that email ' : ''}on that event`, false, res.status);
    return { invitee: invitee.uri, reschedule_url: invitee.reschedule_url, cancel_url: invitee.cancel_url };
  },
});
