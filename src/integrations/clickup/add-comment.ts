import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z.object({
  taskId: z.string().min(1).describe('Task id'),
  text: z.string().min(1).describe('Comment text'),
  notifyAll: z.boolean().default(false).describe("Notify everyone on the task, the comment's author included"),
});

const output = z.object({ id: z.string().describe('Comment id') });

/** Adds a comment to a task (`POST /task/{task_id}/comment`). */
export const addComment = defineAction({
  key: 'add_comment',
  title: 'Comment on a task',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.clickup.com/reference/createtaskcomment',
  async run(params, { http }) {
    const res = await http.request<{ id?: string | number }>({
      method: 'POST',
      path: `/task/${encodeURIComponent(params.taskId)}/comment`,
      json: { comment_text: params.text, notify_all: params.notifyAll },
    });
    if (res.body.id === undefined) throw new VendorError('vendor_error_in_body', 'ClickUp answered without a comment', false, res.status);
    return { id: String(res.body.id) };
  },
});
