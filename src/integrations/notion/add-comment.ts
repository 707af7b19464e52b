import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import { richText } from './rich-text';

const input = z.object({
  page_id: z.string().min(1).describe('Page (or database row) to comment on'),
  text: z.string().min(1).describe('Comment text'),
});

const output = z.object({ id: z.string().describe('Comment id'), discussion_id: z.string().optional() });

/** Adds a comment to a page (`POST /v1/comments`), e.g. a call summary on a CRM row. */
export const addComment = defineAction({
  key: 'add_comment',
  title: 'Comment on a page',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.notion.com/reference/create-a-comment',
  async run(params, { http }) {
    const res = await http.request<{ id?: string; discussion_id?: string }>({
      method: 'POST',
      path: '/v1/comments',
      json: { parent: { page_id: params.page_id }, rich_text: richText(params.text) },
    });
    if (!res.body.id) throw new VendorError('vendor_error_in_body', 'Notion answered without a comment', false, res.status);
    return { id: res.body.id, discussion_id: res.body.discussion_id };
  },
});
