import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: `Basic ${Buffer.from('ops@example.com:atl-token').toString('base64')}` };
const paragraph = (text?: string) => ({ type: 'paragraph', content: text ? [{ type: 'text', text }] : [] });

/** Jira Cloud: email:API token Basic on the connection's site; texts as Atlassian Document Format. */
export const jira: IntegrationCases = {
  integration: 'jira',
  connection: { kind: 'basic', secrets: { username: 'ops@example.com', password: 'atl-token' }, settings: { site: 'acme' } },
  cases: [
    {
      action: 'create_issue',
      params: {
        projectKey: 'SUP',
        summary: 'Caller reports outage',
        description: 'Line one\n\nLine three',
        labels: ['voice'],
        priority: 'High',
        customFieldValues: { customfield_10010: 'acct' },
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/rest/api/3/issue',
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              fields: {
                customfield_10010: 'acct',
                project: { key: 'SUP' },
                summary: 'Caller reports outage',
                issuetype: { name: 'Task' },
                description: { type: 'doc', version: 1, content: [paragraph('Line one'), paragraph(), paragraph('Line three')] },
                labels: ['voice'],
                priority: { name: 'High' },
              },
            },
          },
          response: { status: 201, body: { id: '10000', key: 'SUP-42', self: 'https://acme.atlassian.net/rest/api/3/issue/10000' } },
        },
      ],
      data: { id: '10000', key: 'SUP-42', self: 'https://acme.atlassian.net/rest/api/3/issue/10000' },
    },
    {
      action: 'add_comment',
      params: { issue: 'SUP-42', text: 'Called back, resolved.' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/rest/api/3/issue/SUP-42/comment',
            headers: H,
            body: { body: { type: 'doc', version: 1, content: [paragraph('Called back, resolved.')] } },
          },
          response: { status: 201, body: { id: '500', created: '2026-03-01T10:00:00.000+0000' } },
        },
      ],
      data: { id: '500', created: '2026-03-01T10:00:00.000+0000' },
    },
  ],
};
