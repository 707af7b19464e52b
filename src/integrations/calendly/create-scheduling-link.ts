import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z.object({
  event_type: z.url().describe('URI of the event type the link books (https://api.calendly.com/event_types/…)'),
});

const output = z.object({
  booking_url: z.string().describe('The single-use booking page to send to the caller'),
  owner: z.string(),
});

/** A single-use booking link for one event type (`POST /scheduling_links`, max_event_count 1). */
export const createSchedulingLink = defineAction({
  key: 'create_scheduling_link',
  title: 'Create a single-use booking link',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.calendly.com/api-docs/calendly-api/scheduling-links/create-scheduling-link',
  async run(params, { http }) {
    const res = await http.request<{ resource?: { booking_url: string; owner: string } }>({
      method: 'POST',
      path: '/scheduling_links',
      json: { max_event_count: 1, owner: params.event_type, owner_type: 'EventType' },
    });
    const link = res.body.resource;
    if (!link) throw new VendorError('vendor_error_in_body', 'Calendly answered without a scheduling link', false, res.status);
    return { booking_url: link.booking_url, owner: link.owner };
  },
});
