import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z.object({
  listId: z.string().regex(/^\d+$/, 'a ClickUp list id is numeric').describe('List the task is created in'),
  name: z.string().min(1).describe('Task name'),
  description: z.string().optional().describe('Task description (plain text)'),
  assignees: z.array(z.number().int()).optional().describe('Assignee user ids'),
  tags: z.array(z.string().min(1)).optional().describe('Tag names'),
  status: z.string().min(1).optional().describe("Status name from the list's statuses"),
  priority: z.number().int().min(1).max(4).optional().describe('1 urgent, 2 high, 3 normal, 4 low'),
  dueDate: z.iso.datetime({ offset: true }).optional().describe('Due date and time (ISO 8601)'),
  customFieldValues: z
    .array(z.object({ id: z.string().min(1).describe('Custom field id (a UUID)'), value: z.unknown().describe('Value in the field type’s form') }))
    .optional()
    .describe('Custom field values by field id'),
});

const output = z.object({ id: z.string().describe('Task id'), url: z.string().optional() });

/** Creates a task in a list (`POST /list/{list_id}/task`; dates in Unix milliseconds). */
export const createTask = defineAction({
  key: 'create_task',
  title: 'Create a task',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.clickup.com/reference/createtask',
  async run(params, { http }) {
    const body: Record<string, unknown> = { name: params.name };
    if (params.description !== undefined) body.description = params.description;
    if (params.assignees) body.assignees = params.assignees;
    if (params.tags) body.tags = params.tags;
    if (params.status) body.status = params.status;
    if (params.priority) body.priority = params.priority;
    if (params.dueDate) Object.assign(body, { due_date: Date.parse(params.dueDate), due_date_time: true });
    if (params.customFieldValues) body.custom_fields = params.customFieldValues;
    const res = await http.request<{ id?: string; url?: string }>({ method: 'POST', path: `/list/${params.listId}/task`, json: body });
    if (!res.body.id) throw new VendorError('vendor_error_in_body', 'ClickUp answered without a task', false, res.status);
    return { id: res.body.id, url: res.body.url };
  },
});
