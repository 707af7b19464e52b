import { z } from 'zod';
import { defineAction } from '../define';
import { SF_API, sfFields, type SfSaveResult } from './api';

const input = z
  .object({
    Email: z.email().describe('Identifies the lead: the open lead with this email is updated, else one is created'),
    LastName: z.string().min(1).max(80).optional().describe('Required when a lead is created'),
    Company: z.string().min(1).max(255).optional().describe('Required when a lead is created'),
    FirstName: z.string().max(40).optional(),
    Phone: z.string().max(40).optional(),
    Title: z.string().max(128).optional(),
    LeadSource: z.string().max(255).optional(),
    Status: z.string().max(255).optional(),
    Description: z.string().max(32_000).optional(),
    fields: sfFields.optional(),
  })
  .strict();

const output = z.object({ id: z.string(), created: z.boolean() });

/** SOQL string literal: backslash and quote escaped. */
const soql = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * Updates the unconverted lead with this email, or creates one (Email is not an external-id field, so: query, then PATCH
 * or POST). A replay after an unknown outcome finds the lead the first try created, so it writes the same lead.
 */
export default defineAction({
  key: 'upsert_lead',
  title: 'Create or update a lead by email',
  input,
  output,
  idempotent: true,
  docs: 'https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/dome_query.htm',
  async run({ fields, ...named }, { http }) {
    const q = `SELECT Id FROM Lead WHERE Email = ${soql(named.Email)} AND IsConverted = false ORDER BY CreatedDate DESC LIMIT 1`;
    const found = await http.request<{ records: Array<{ Id: string }> }>({ method: 'GET', path: `${SF_API}/query`, query: { q } });
    const id = found.body.records[0]?.Id;
    const json = { ...fields, ...named };
    if (id) {
      await http.request({ method: 'PATCH', path: `${SF_API}/sobjects/Lead/${id}`, json });
      return { id, created: false };
    }
    const res = await http.request<SfSaveResult>({ method: 'POST', path: `${SF_API}/sobjects/Lead`, json });
    return { id: res.body.id, created: true };
  },
});
