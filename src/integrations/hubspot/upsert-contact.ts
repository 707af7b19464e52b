import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import { vendorMessage } from '../vendor-client';
import { contactProperties, type HubspotObject } from './properties';

const input = z
  .object({
    email: z.email().describe('Identifies the contact: updated when one has it, else created with it'),
    properties: contactProperties.default({}).describe('Properties to write, by internal name'),
  })
  .strict();

const output = z.object({ id: z.string(), created: z.boolean(), properties: z.record(z.string(), z.unknown()) });

/** Creates the contact with this email or updates the one that has it (batch upsert by email), in one request. */
export default defineAction({
  key: 'upsert_contact',
  title: 'Create or update a contact by email',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.hubspot.com/docs/api/crm/contacts#create-or-update-contacts',
  async run(p, { http }) {
    const res = await http.request<{ results?: Array<HubspotObject & { new?: boolean }>; errors?: unknown[] }>({
      method: 'POST',
      path: '/crm/v3/objects/contacts/batch/upsert',
      json: { inputs: [{ idProperty: 'email', id: p.email, properties: { ...p.properties, email: p.email } }] },
    });
    const row = res.body.results?.[0];
    // A batch answers 207 with the row's failure under `errors` instead of a result.
    if (!row) throw new VendorError('vendor_error_in_body', `HubSpot did not upsert the contact (${vendorMessage(res.body)})`, false, res.status);
    return { id: row.id, created: row.new === true, properties: row.properties ?? {} };
  },
});
