import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';
import { asana as cases } from './cases/asana';

// The requests of every action are the cases in ./cases/asana.ts; these are Asana's refusals.
const asana = actionHarness(cases);

describe('asana', () => {
  test('401 fails at once with a message to reconnect', async () => {
    asana.fake.on('POST', '/api/1.0/tasks', { status: 401, body: { errors: [{ message: 'Not Authorized' }] } });
    const err = await asana.fail('create_task', caseParams(cases, 'create_task'));
    expect(err.type).toBe('vendor_auth_failed');
    expect(err.message).toContain('Not Authorized');
    expect(err.message).toContain('reconnect');
    expect(asana.fake.requests).toHaveLength(1);
  });

  test('a task with neither projects nor workspace is refused before anything is sent', async () => {
    const err = await asana.fail('create_task', { ...caseParams(cases, 'create_task'), projects: undefined });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('projects: projects or workspace is required');
    expect(asana.fake.requests).toHaveLength(0);
  });

  test('the description check can fail: a task body not wrapped in data is reported', () => {
    const body = { name: 'x', projects: ['1'] };
    expect(
      vendorSpec('asana.json')({
        method: 'POST',
        path: '/api/1.0/tasks',
        query: {},
        headers: { 'content-type': 'application/json' },
        rawBody: JSON.stringify(body),
        body,
      }).length,
    ).toBeGreaterThan(0);
  });
});
