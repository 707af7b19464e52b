import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import { adf } from './adf';

const input = z.object({
  projectKey: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]+$/, 'a Jira project key is upper case (SUP)')
    .describe('Project key (SUP)'),
  summary: z.string().min(1).max(255).describe('Issue summary'),
  issueType: z.string().min(1).default('Task').describe('Issue type name (Task, Bug, Story)'),
  description: z.string().optional().describe('Description text; each line becomes a paragraph'),
  labels: z.array(z.string().regex(/^\S+$/, 'labels have no spaces')).optional().describe('Labels'),
  priority: z.string().min(1).optional().describe('Priority name (High)'),
  assigneeAccountId: z.string().min(1).optional().describe("Assignee's Atlassian account id"),
  customFieldValues: z
    .record(z.string().regex(/^customfield_\d+$/, 'custom field ids look like customfield_10010'), z.unknown())
    .optional()
    .describe('Custom field values by field id ({"customfield_10010": "…"})'),
});

const output = z.object({ id: z.string(), key: z.string().describe('Issue key (SUP-42)'), self: z.string().optional() });

/** Creates an issue (`POST /rest/api/3/issue`; description in Atlassian Document Format). */
export const createIssue = defineAction({
  key: 'create_issue',
  title: 'Create an issue',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.atlassian.com/cloud/jira/platform/rest/v3/api-group-issues/#api-rest-api-3-issue-post',
  async run(params, { http }) {
    const fields: Record<string, unknown> = {
      ...params.customFieldValues,
      project: { key: params.projectKey },
      summary: params.summary,
      issuetype: { name: params.issueType },
    };
    if (params.description) fields.description = adf(params.description);
    if (params.labels) fields.labels = params.labels;
    if (params.priority) fields.priority = { name: params.priority };
    if (params.assigneeAccountId) fields.assignee = { accountId: params.assigneeAccountId };
    const res = await http.request<{ id?: string; key?: string; self?: string }>({ method: 'POST', path: '/rest/api/3/issue', json: { fields } });
    if (!res.body.id || !res.body.key) throw new VendorError('vendor_error_in_body', 'Jira answered without an issue', false, res.status);
    return { id: res.body.id, key: res.body.key, self: res.body.self };
  },
});
