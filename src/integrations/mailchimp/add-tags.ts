import { z } from 'zod';
import { defineAction } from '../define';
import { listId, memberPath } from './member';

const input = z
  .object({
    list_id: listId,
    email_address: z.email().describe('The member'),
    tags: z.array(z.string().min(1).max(100)).min(1).max(50).describe('Tags to add'),
    remove: z.array(z.string().min(1).max(100)).max(50).optional().describe('Tags to remove'),
  })
  .strict();

const output = z.object({ updated: z.boolean() });

/** Adds (and optionally removes) tags on a member. */
export default defineAction({
  key: 'add_tags',
  title: 'Tag an audience member',
  input,
  output,
  idempotent: true,
  docs: 'https://mailchimp.com/developer/marketing/api/list-member-tags/add-or-remove-member-tags/',
  async run(p, { http }) {
    const tags = [...p.tags.map((name) => ({ name, status: 'active' })), ...(p.remove ?? []).map((name) => ({ name, status: 'inactive' }))];
    await http.request({ method: 'POST', path: `${memberPath(p.list_id, p.email_address)}/tags`, json: { tags } });
    return { updated: true };
  },
});
