import { actionHarness } from '../helpers/integration-harness';

const clickup = actionHarness('clickup', ['create_task', 'add_comment'], { kind: 'api_key', secrets: { api_key: 'pk_123_ABC' } });

describe('clickup', () => {
  test('create_task sends the personal token bare, dates in Unix milliseconds, custom fields by id', async () => {
    clickup.fake.on('POST', '/list/901/task', { body: { id: '86a1b2c3', url: 'https://app.clickup.com/t/86a1b2c3' } });
    const result = await clickup.run('create_task', {
      listId: '901',
      name: 'Call back Ada',
      description: 'Wants pricing',
      assignees: [183],
      tags: ['voice'],
      priority: 2,
      dueDate: '2026-03-02T17:00:00Z',
      customFieldValues: [{ id: '0a52c486-5f05-403b-b4fd-c512ff05131c', value: '5k' }],
    });
    const req = clickup.sent();
    expect([req.method, req.path]).toEqual(['POST', '/list/901/task']);
    expect(req.headers.authorization).toBe('pk_123_ABC');
    expect(req.body).toEqual({
      name: 'Call back Ada',
      description: 'Wants pricing',
      assignees: [183],
      tags: ['voice'],
      priority: 2,
      due_date: Date.parse('2026-03-02T17:00:00Z'),
      due_date_time: true,
      custom_fields: [{ id: '0a52c486-5f05-403b-b4fd-c512ff05131c', value: '5k' }],
    });
    expect(result.data).toEqual({ id: '86a1b2c3', url: 'https://app.clickup.com/t/86a1b2c3' });
  });

  test('add_comment posts the comment; an OAuth connection sends a Bearer token', async () => {
    clickup.fake.on('POST', '/task/86a1b2c3/comment', { body: { id: 458, hist_id: '26508', date: 1568036964079 } });
    const result = await clickup.run('add_comment', { taskId: '86a1b2c3', text: 'Called back.' }, { connection: { kind: 'oauth2', secrets: { access_token: 'cu-oauth' } } });
    const req = clickup.sent();
    expect([req.method, req.path]).toEqual(['POST', '/task/86a1b2c3/comment']);
    expect(req.headers.authorization).toBe('Bearer cu-oauth');
    expect(req.body).toEqual({ comment_text: 'Called back.', notify_all: false });
    expect(result.data).toEqual({ id: '458' });
  });

  test('5xx is retried with backoff, then fails as unavailable after the last attempt', async () => {
    clickup.fake.on('POST', '/task/86a1b2c3/comment', { status: 503, body: { err: 'Service unavailable', ECODE: 'OAUTH_000' } });
    const err = await clickup.fail('add_comment', { taskId: '86a1b2c3', text: 'x' });
    expect(err.type).toBe('vendor_unavailable');
    expect(clickup.fake.requests).toHaveLength(3);
    expect(clickup.sleeps).toHaveLength(2);
    expect(clickup.sleeps[1]!).toBeGreaterThan(clickup.sleeps[0]!);
  });

  test('a 5xx then a success completes on the retry', async () => {
    clickup.fake.on('POST', '/task/86a1b2c3/comment', { status: 502, body: 'Bad Gateway' }, { body: { id: 459 } });
    const result = await clickup.run('add_comment', { taskId: '86a1b2c3', text: 'y' });
    expect(result.attempts).toBe(2);
    expect(result.data).toEqual({ id: '459' });
  });
});
