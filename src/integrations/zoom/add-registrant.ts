import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z.object({
  meetingId: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]).describe('Meeting id (registration must be enabled)'),
  email: z.email().describe("Registrant's email"),
  first_name: z.string().min(1).describe("Registrant's first name"),
  last_name: z.string().min(1).optional().describe("Registrant's last name"),
  phone: z.string().min(1).optional().describe("Registrant's phone"),
});

const output = z.object({
  registrant_id: z.string(),
  join_url: z.string().describe("The registrant's own join link"),
});

/** Registers someone for a meeting and returns their join link (`POST /meetings/{meetingId}/registrants`). */
export const addRegistrant = defineAction({
  key: 'add_registrant',
  title: 'Register for a meeting',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.zoom.us/docs/api/meetings/#tag/meetings/POST/meetings/{meetingId}/registrants',
  async run({ meetingId, ...registrant }, { http }) {
    const res = await http.request<{ registrant_id?: string; join_url?: string }>({
      method: 'POST',
      path: `/meetings/${encodeURIComponent(String(meetingId))}/registrants`,
      json: registrant,
    });
    if (!res.body.registrant_id || !res.body.join_url) throw new VendorError('vendor_error_in_body', 'Zoom answered without a registrant', false, res.status);
    return { registrant_id: res.body.registrant_id, join_url: res.body.join_url };
  },
});
