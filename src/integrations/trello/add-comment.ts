import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z.object({
  card: z.string().min(1).describe('Card id or short link'),
  text: z.string().min(1).max(16384).describe('Comment text'),
});

const output = z.object({ id: z.string().describe('Comment action id') });

/** Adds a comment to a card (`POST /cards/{id}/actions/comments`). */
export const addComment = defineAction({
  key: 'add_comment',
  title: 'Comment on a card',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.atlassian.com/cloud/trello/rest/api-group-cards/#api-cards-id-actions-comments-post',
  async run(params, { http }) {
    const res = await http.request<{ id?: string }>({
      method: 'POST',
      path: `/cards/${encodeURIComponent(params.card)}/actions/comments`,
      query: { text: params.text },
    });
    if (!res.body.id) throw new VendorError('vendor_error_in_body', 'Trello answered without a comment', false, res.status);
    return { id: res.body.id };
  },
});
