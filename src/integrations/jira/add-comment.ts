import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import { adf } from './adf';

const input = z.object({
  issue: z.string().min(1).describe('Issue key or id (SUP-42)'),
  text: z.string().min(1).describe('Comment text; each line becomes a paragraph'),
});

const output = z.object({ id: z.string().describe('Comment id'), created: z.string().optional() });

/** Adds a comment to an issue (`POST /rest/api/3/issue/{issueIdOrKey}/comment`). */
export const addComment = defineAction({
  key: 'add_comment',
  title: 'Comment on an issue',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.atlassian.com/cloud/jira/platform/rest/v3/api-group-issue-comments/#api-rest-api-3-issue-issueidorkey-comment-post',
  async run(params, { http }) {
    const res = await http.request<{ id?: string; created?: string }>({
      method: 'POST',
      path: `/rest/api/3/issue/${encodeURIComponent(params.issue)}/comment`,
      json: { body: adf(params.text) },
    });
    if (!res.body.id) throw new VendorError('vendor_error_in_body', 'Jira answered without a comment', false, res.status);
    return { id: res.body.id, created: res.body.created };
  },
});
