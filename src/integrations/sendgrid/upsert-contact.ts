import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    email: z.email().max(254).describe("The contact's email: it identifies the contact (created, or updated when it exists)"),
    first_name: z.string().max(50).optional(),
    last_name: z.string().max(50).optional(),
    phone_number: z.string().max(32).optional(),
    city: z.string().max(60).optional(),
    country: z.string().max(50).optional(),
    postal_code: z.string().max(60).optional(),
    listIds: z.array(z.uuid()).max(100).optional().describe('Marketing lists to add the contact to'),
    custom_fields: z
      .record(z.string().regex(/^[a-z]\d+_[TND]$/), z.union([z.string().max(1000), z.number()]))
      .optional()
      .describe('Values of existing custom fields by field id: e1_T (text), e2_N (number), e3_D (date)'),
  })
  .strict();

const output = z.object({ jobId: z.string() });

/** Adds or updates a marketing contact (PUT /v3/marketing/contacts: queued, SendGrid answers 202 with the import job id). */
export default defineAction({
  key: 'upsert_contact',
  title: 'Add or update a marketing contact',
  input,
  output,
  idempotent: true,
  docs: 'https://www.twilio.com/docs/sendgrid/api-reference/contacts/add-or-update-a-contact',
  async run(p, { http }) {
    // The spec reserves params.customFields for call-data lookups, so the vendor's own custom fields are custom_fields.
    const { listIds, custom_fields: customFields, ...fields } = p;
    const contact = { ...fields, ...(customFields ? { custom_fields: customFields } : {}) };
    const res = await http.request<{ job_id: string }>({
      method: 'PUT',
      path: '/v3/marketing/contacts',
      json: { ...(listIds ? { list_ids: listIds } : {}), contacts: [contact] },
    });
    return { jobId: res.body.job_id };
  },
});
