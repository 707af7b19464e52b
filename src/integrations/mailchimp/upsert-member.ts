import { z } from 'zod';
import { defineAction } from '../define';
import { listId, memberPath } from './member';

const status = z.enum(['subscribed', 'unsubscribed', 'cleaned', 'pending', 'transactional']);

const input = z
  .object({
    list_id: listId,
    email_address: z.email(),
    status_if_new: status.default('subscribed').describe('Status when the address is new'),
    status: status.optional().describe('Status to set when the address already exists'),
    merge_fields: z
      .record(z.string().regex(/^[A-Z0-9_]{1,10}$/, 'a merge tag (FNAME)'), z.union([z.string(), z.number()]))
      .optional()
      .describe('Merge fields by tag: FNAME, LNAME, PHONE, custom tags'),
    tags: z.array(z.string().min(1).max(100)).max(50).optional().describe('Tags for a new member'),
    language: z.string().max(10).optional(),
  })
  .strict();

const output = z.object({ id: z.string(), status: z.string() });

/** Adds or updates an audience member (PUT on the member's hash), so a replay changes nothing more. */
export default defineAction({
  key: 'upsert_member',
  title: 'Add or update an audience member',
  input,
  output,
  idempotent: true,
  docs: 'https://mailchimp.com/developer/marketing/api/list-members/add-or-update-list-member/',
  async run({ list_id, ...member }, { http }) {
    const res = await http.request<{ id: string; status: string }>({ method: 'PUT', path: memberPath(list_id, member.email_address), json: member });
    return { id: res.body.id, status: res.body.status };
  },
});
