import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const gid = z.string().regex(/^\d+$/, 'an Asana gid is numeric');

const input = z
  .object({
    name: z.string().min(1).describe('Task name'),
    notes: z.string().optional().describe('Task description (plain text)'),
    projects: z.array(gid).optional().describe('Project gids the task is added to'),
    workspace: gid.optional().describe('Workspace gid; needed when no project is given'),
    assignee: z.string().min(1).optional().describe('Assignee: "me", an email or a user gid'),
    due_on: z.iso.date().optional().describe('Due date (YYYY-MM-DD)'),
    due_at: z.iso.datetime({ offset: true }).optional().describe('Due date and time (ISO 8601); use instead of due_on'),
    custom_fields: z
      .record(gid, z.union([z.string(), z.number(), z.array(z.string()), z.null()]))
      .optional()
      .describe('Custom field values by custom field gid (enum fields take the option gid)'),
  })
  .refine((v) => (v.projects?.length ?? 0) > 0 || v.workspace !== undefined, { message: 'projects or workspace is required', path: ['projects'] })
  .refine((v) => v.due_on === undefined || v.due_at === undefined, { message: 'give due_on or due_at, not both', path: ['due_at'] });

const output = z.object({ gid: z.string().describe('Task gid'), permalink_url: z.string().optional() });

/** Creates a task (`POST /tasks`, wrapped in `data`; Asana answers with the full task). */
export const createTask = defineAction({
  key: 'create_task',
  title: 'Create a task',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.asana.com/reference/createtask',
  async run(params, { http }) {
    const res = await http.request<{ data?: { gid?: string; permalink_url?: string } }>({
      method: 'POST',
      path: '/tasks',
      json: { data: params },
    });
    const task = res.body.data;
    if (!task?.gid) throw new VendorError('vendor_error_in_body', 'Asana answered without a task', false, res.status);
    return { gid: task.gid, permalink_url: task.permalink_url };
  },
});
