import { z } from 'zod';
import { defineAction } from '../define';
import { closeId } from './ids';

const input = z
  .object({
    lead_id: closeId('lead').describe('The lead the call was with'),
    contact_id: closeId('cont').optional(),
    direction: z.enum(['inbound', 'outbound']).describe('Who called whom'),
    phone: z.string().max(64).optional().describe('The other party’s number'),
    duration: z.number().int().min(0).optional().describe('Seconds'),
    note: z.string().max(100_000).optional().describe('Call notes or summary'),
    disposition: z.enum(['answered', 'no-answer', 'vm-answer', 'vm-left', 'busy', 'blocked', 'error', 'abandoned']).optional(),
  })
  .strict();

const output = z.object({ id: z.string() });

/** Logs a call made outside Close (status completed) on a lead. */
export default defineAction({
  key: 'log_call',
  title: 'Log a call',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.close.com/resources/activities/call/',
  async run(p, { http }) {
    const res = await http.request<{ id: string }>({ method: 'POST', path: '/api/v1/activity/call/', json: { ...p, status: 'completed' } });
    return { id: res.body.id };
  },
});
