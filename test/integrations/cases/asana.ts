import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer 2/1203/secret' };

/** Asana: personal access token; bodies wrapped in `data`. */
export const asana: IntegrationCases = {
  integration: 'asana',
  connection: { kind: 'api_key', secrets: { api_key: '2/1203/secret' } },
  spec: { file: 'asana.json' },
  cases: [
    {
      action: 'create_task',
      params: {
        name: 'Call back Ada',
        notes: 'Wants pricing',
        projects: ['1201'],
        assignee: 'me',
        due_on: '2026-03-02',
        custom_fields: { '4578152156': 'Hot lead' },
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/1.0/tasks',
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              data: {
                name: 'Call back Ada',
                notes: 'Wants pricing',
                projects: ['1201'],
                assignee: 'me',
                due_on: '2026-03-02',
                custom_fields: { '4578152156': 'Hot lead' },
              },
            },
          },
          response: { status: 201, body: { data: { gid: '1204', permalink_url: 'https://app.asana.com/0/1/1204' } } },
        },
      ],
      data: { gid: '1204', permalink_url: 'https://app.asana.com/0/1/1204' },
    },
    {
      action: 'add_comment',
      params: { task: '1204', text: 'Left a voicemail.' },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/1.0/tasks/1204/stories', headers: H, body: { data: { text: 'Left a voicemail.' } } },
          response: { status: 201, body: { data: { gid: '1300', resource_type: 'story' } } },
        },
      ],
      data: { gid: '1300' },
      notDescribed: 'asana.json keeps POST /tasks only',
    },
  ],
};
