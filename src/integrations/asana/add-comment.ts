import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z.object({
  task: z.string().regex(/^\d+$/, 'an Asana gid is numeric').describe('Task gid'),
  text: z.string().min(1).describe('Comment text'),
});

const output = z.object({ gid: z.string().describe('Story (comment) gid') });

/** Adds a comment to a task (`POST /tasks/{task_gid}/stories`). */
export const addComment = defineAction({
  key: 'add_comment',
  title: 'Comment on a task',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.asana.com/reference/createstoryfortask',
  async run(params, { http }) {
    const res = await http.request<{ data?: { gid?: string } }>({
      method: 'POST',
      path: `/tasks/${params.task}/stories`,
      json: { data: { text: params.text } },
    });
    if (!res.body.data?.gid) throw new VendorError('vendor_error_in_body', 'Asana answered without a story', false, res.status);
    return { gid: res.body.data.gid };
  },
});
