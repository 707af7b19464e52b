import { z } from 'zod';
import { defineAction } from '../define';
import { JSON_API } from './profile';

const input = z
  .object({
    metric: z.string().min(1).max(128).describe('Metric (event) name, e.g. "Call Completed"'),
    email: z.email().optional().describe('The profile, by email'),
    phone_number: z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, 'an E.164 number')
      .optional()
      .describe('The profile, by phone'),
    properties: z.record(z.string().min(1), z.unknown()).default({}).describe('Event properties'),
    value: z.number().optional().describe('A monetary value of the event'),
    time: z.iso.datetime({ offset: true }).optional().describe('When it happened (ISO 8601); now when omitted'),
  })
  .strict()
  .refine((p) => p.email !== undefined || p.phone_number !== undefined, { message: 'give email or phone_number', path: ['email'] });

const output = z.object({ accepted: z.boolean() });

/** Records an event on a profile; the run's idempotency key is its `unique_id`, so Klaviyo keeps one per run. */
export default defineAction({
  key: 'track_event',
  title: 'Track an event',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.klaviyo.com/en/reference/create_event',
  async run(p, { http, idempotencyKey }) {
    const profile = { data: { type: 'profile', attributes: { email: p.email, phone_number: p.phone_number } } };
    const metric = { data: { type: 'metric', attributes: { name: p.metric } } };
    const attributes = { properties: p.properties, metric, profile, value: p.value, time: p.time, unique_id: idempotencyKey };
    await http.request({ method: 'POST', path: '/api/events', json: { data: { type: 'event', attributes } }, headers: JSON_API });
    return { accepted: true };
  },
});
