import { z } from 'zod';
import { defineAction } from '../define';
import { objectType, recordId } from './properties';

const input = z
  .object({
    from_type: objectType,
    from_id: recordId,
    to_type: objectType,
    to_id: recordId,
  })
  .strict()
  .refine((p) => p.from_type !== p.to_type, { message: 'associate records of two different types', path: ['to_type'] });

const output = z.object({ associated: z.literal(true) });

/** Associates two records with HubSpot's default association (v4; associating twice changes nothing). */
export default defineAction({
  key: 'associate',
  title: 'Associate two records',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.hubspot.com/docs/api/crm/associations',
  async run(p, { http }) {
    const path = `/crm/v4/objects/${p.from_type}/${p.from_id}/associations/default/${p.to_type}/${p.to_id}`;
    await http.request({ method: 'PUT', path });
    return { associated: true as const };
  },
});
