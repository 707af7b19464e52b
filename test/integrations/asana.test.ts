import { actionHarness } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';

const asana = actionHarness('asana', ['create_task', 'add_comment'], { kind: 'api_key', secrets: { api_key: '2/1203/secret' } });
const spec = vendorSpec('asana.json');

describe('asana', () => {
  test('create_task sends the task wrapped in data, custom fields by gid', async () => {
    asana.fake.on('POST', '/tasks', { status: 201, body: { data: { gid: '1204', permalink_url: 'https://app.asana.com/0/1/1204' } } });
    const result = await asana.run('create_task', {
      name: 'Call back Ada',
      notes: 'Wants pricing',
      projects: ['1201'],
      assignee: 'me',
      due_on: '2026-03-02',
      custom_fields: { '4578152156': 'Hot lead' },
    });
    const req = asana.sent();
    expect([req.method, req.path]).toEqual(['POST', '/tasks']);
    expect(req.query).toEqual({});
    expect(req.headers.authorization).toBe('Bearer 2/1203/secret');
    expect(req.body).toEqual({
      data: { name: 'Call back Ada', notes: 'Wants pricing', projects: ['1201'], assignee: 'me', due_on: '2026-03-02', custom_fields: { '4578152156': 'Hot lead' } },
    });
    // The description's servers URL carries /api/1.0; the fake serves the paths beneath it.
    expect(spec({ ...req, path: `/api/1.0${req.path}` })).toEqual([]);
    expect(result.data).toEqual({ gid: '1204', permalink_url: 'https://app.asana.com/0/1/1204' });
  });

  test('add_comment posts a story on the task', async () => {
    asana.fake.on('POST', '/tasks/1204/stories', { status: 201, body: { data: { gid: '1300', resource_type: 'story' } } });
    const result = await asana.run('add_comment', { task: '1204', text: 'Left a voicemail.' });
    const req = asana.sent();
    expect([req.method, req.path]).toEqual(['POST', '/tasks/1204/stories']);
    expect(req.body).toEqual({ data: { text: 'Left a voicemail.' } });
    expect(result.data).toEqual({ gid: '1300' });
  });

  test('401 fails at once with a message to reconnect', async () => {
    asana.fake.on('POST', '/tasks', { status: 401, body: { errors: [{ message: 'Not Authorized' }] } });
    const err = await asana.fail('create_task', { name: 'x', workspace: '1' });
    expect(err.type).toBe('vendor_auth_failed');
    expect(err.message).toContain('Not Authorized');
    expect(err.message).toContain('reconnect');
    expect(asana.fake.requests).toHaveLength(1);
  });

  test('a task with neither projects nor workspace is refused before anything is sent', async () => {
    const err = await asana.fail('create_task', { name: 'x' });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('projects: projects or workspace is required');
    expect(asana.fake.requests).toHaveLength(0);
  });
});
