import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z.object({
  userId: z.string().min(1).default('me').describe("Host's user id or email; 'me' for the connected user"),
  topic: z.string().min(1).max(200).describe('Meeting topic'),
  start_time: z.iso.datetime({ offset: true }).describe('Start, ISO 8601 with Z or an offset (2026-03-01T15:00:00Z)'),
  duration: z.number().int().positive().describe('Length in minutes'),
  timezone: z.string().min(1).optional().describe('IANA time zone of start_time'),
  agenda: z.string().max(2000).optional().describe('Meeting description'),
  password: z.string().max(10).optional().describe('Passcode (up to 10 characters)'),
  settings: z
    .object({
      join_before_host: z.boolean().optional().describe('Let participants join before the host'),
      waiting_room: z.boolean().optional().describe('Hold participants in a waiting room'),
      mute_upon_entry: z.boolean().optional().describe('Mute participants when they join'),
      approval_type: z.number().int().min(0).max(2).optional().describe('Registration: 0 automatic approval, 1 manual, 2 none'),
      alternative_hosts: z.string().optional().describe('Alternative host emails, comma separated'),
    })
    .optional()
    .describe('Meeting settings'),
});

const output = z.object({
  id: z.number().describe('Meeting id'),
  join_url: z.string(),
  start_url: z.string().optional(),
  password: z.string().optional(),
  start_time: z.string().optional(),
});

/** Schedules a meeting for a user (`POST /users/{userId}/meetings`, type 2). */
export const createMeeting = defineAction({
  key: 'create_meeting',
  title: 'Schedule a meeting',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.zoom.us/docs/api/meetings/#tag/meetings/POST/users/{userId}/meetings',
  async run({ userId, ...meeting }, { http }) {
    const res = await http.request<{ id?: number; join_url?: string; start_url?: string; password?: string; start_time?: string }>({
      method: 'POST',
      path: `/users/${encodeURIComponent(userId)}/meetings`,
      json: { ...meeting, type: 2 },
    });
    const m = res.body;
    if (typeof m.id !== 'number' || !m.join_url) throw new VendorError('vendor_error_in_body', 'Zoom answered without a meeting', false, res.status);
    return { id: m.id, join_url: m.join_url, start_url: m.start_url, password: m.password, start_time: m.start_time };
  },
});
