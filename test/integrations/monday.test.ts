import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { graphqlSpec } from '../helpers/graphql-spec';
import { monday as cases } from './cases/monday';

// The requests of every action are the cases in ./cases/monday.ts; these are monday's errors in 200s and the check's liveness.
const monday = actionHarness(cases);
const spec = graphqlSpec('monday.json');

describe('monday', () => {
  test('a 200 carrying GraphQL errors is a failure with monday’s message, not retried', async () => {
    monday.fake.on('POST', '/v2', { body: { data: null, errors: [{ message: 'Board not found', extensions: { code: 'ResourceNotFoundException' } }] } });
    const err = await monday.fail('create_item', caseParams(cases, 'create_item'));
    expect(err.type).toBe('vendor_error_in_body');
    expect(err.message).toBe('monday.com: Board not found');
    expect(monday.fake.requests).toHaveLength(1);
  });

  test('an exhausted complexity budget in a 200 is retried after the seconds monday names', async () => {
    monday.fake.on(
      'POST',
      '/v2',
      { body: { errors: [{ message: 'Complexity budget exhausted', extensions: { code: 'COMPLEXITY_BUDGET_EXHAUSTED', retry_in_seconds: 3 } }] } },
      { body: { data: { create_update: { id: '78' } } } },
    );
    const result = await monday.run('add_update', caseParams(cases, 'add_update'));
    expect(result.attempts).toBe(2);
    expect(monday.sleeps).toEqual([3000]);
  });

  test('the schema check itself catches a field monday does not have', () => {
    const problems = spec({
      method: 'POST',
      path: '/v2',
      query: {},
      headers: {},
      rawBody: '',
      body: { query: 'mutation { create_item(board_id: 1, item_name: "x", colour: "red") { id } }' },
    });
    expect(problems.join('\n')).toContain('Unknown argument "colour"');
  });
});
