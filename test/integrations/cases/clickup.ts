import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'pk_123_ABC' };

/** ClickUp: the personal token bare in Authorization. */
export const clickup: IntegrationCases = {
  integration: 'clickup',
  connection: { kind: 'api_key', secrets: { api_key: 'pk_123_ABC' } },
  cases: [
    {
      action: 'create_task',
      params: {
        listId: '901',
        name: 'Call back Ada',
        description: 'Wants pricing',
        assignees: [183],
        tags: ['voice'],
        priority: 2,
        dueDate: '2026-03-02T17:00:00Z',
        customFieldValues: [{ id: '0a52c486-5f05-403b-b4fd-c512ff05131c', value: '5k' }],
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/v2/list/901/task',
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              name: 'Call back Ada',
              description: 'Wants pricing',
              assignees: [183],
              tags: ['voice'],
              priority: 2,
              due_date: Date.parse('2026-03-02T17:00:00Z'),
              due_date_time: true,
              custom_fields: [{ id: '0a52c486-5f05-403b-b4fd-c512ff05131c', value: '5k' }],
            },
          },
          response: { body: { id: '86a1b2c3', url: 'https://app.clickup.com/t/86a1b2c3' } },
        },
      ],
      data: { id: '86a1b2c3', url: 'https://app.clickup.com/t/86a1b2c3' },
    },
    {
      action: 'add_comment',
      params: { taskId: '86a1b2c3', text: 'Called back.' },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/v2/task/86a1b2c3/comment', headers: H, body: { comment_text: 'Called back.', notify_all: false } },
          response: { body: { id: 458, hist_id: '26508', date: 1568036964079 } },
        },
      ],
      data: { id: '458' },
    },
  ],
};
