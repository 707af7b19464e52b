import { actionHarness } from '../helpers/integration-harness';
import { graphqlSpec } from '../helpers/graphql-spec';

const monday = actionHarness('monday', ['create_item', 'change_column_values', 'add_update'], { kind: 'api_key', secrets: { api_key: 'eyJmonday' } });
const spec = graphqlSpec('monday.json');

describe('monday', () => {
  test('create_item sends the create_item mutation with column values as a JSON string', async () => {
    monday.fake.on('POST', '/v2', { body: { data: { create_item: { id: '9001', name: 'Ada Caller', url: 'https://acme.monday.com/boards/1/pulses/9001' } } } });
    const columnValues = { status: { label: 'New lead' }, phone: { phone: '+15550100', countryShortName: 'US' } };
    const result = await monday.run('create_item', { boardId: 1234567, itemName: 'Ada Caller', groupId: 'topics', columnValues });
    const req = monday.sent();
    expect([req.method, req.path]).toEqual(['POST', '/v2']);
    expect(req.headers.authorization).toBe('eyJmonday');
    expect(req.headers['api-version']).toBe('2026-10');
    const body = req.body as { query: string; variables: Record<string, unknown> };
    expect(body.query).toMatch(/create_item\(board_id: \$board, item_name: \$name, group_id: \$group, column_values: \$columns/);
    expect(body.variables).toEqual({ board: '1234567', name: 'Ada Caller', group: 'topics', columns: JSON.stringify(columnValues) });
    expect(spec(req)).toEqual([]);
    expect(result.data).toEqual({ id: '9001', name: 'Ada Caller', url: 'https://acme.monday.com/boards/1/pulses/9001' });
  });

  test('change_column_values sends change_multiple_column_values; a custom field resolves from callData into a column', async () => {
    monday.fake.on('POST', '/v2', { body: { data: { change_multiple_column_values: { id: '9001', name: 'Ada Caller' } } } });
    const result = await monday.run(
      'change_column_values',
      { boardId: '1234567', itemId: '9001', columnValues: { text: 'budget' }, customFields: [{ field: 'columnValues.text', customFieldEnabled: true }] },
      { callData: { fields: { budget: '5k-10k' } } },
    );
    const req = monday.sent();
    const body = req.body as { query: string; variables: Record<string, unknown> };
    expect(body.query).toContain('change_multiple_column_values(board_id: $board, item_id: $item, column_values: $columns');
    expect(body.variables).toEqual({ board: '1234567', item: '9001', columns: '{"text":"5k-10k"}' });
    expect(spec(req)).toEqual([]);
    expect(result.data).toEqual({ id: '9001', name: 'Ada Caller' });
  });

  test('add_update posts an update on the item', async () => {
    monday.fake.on('POST', '/v2', { body: { data: { create_update: { id: '77' } } } });
    const result = await monday.run('add_update', { itemId: 9001, body: 'Call summary: wants a demo.' });
    const req = monday.sent();
    expect((req.body as { variables: unknown }).variables).toEqual({ item: '9001', body: 'Call summary: wants a demo.' });
    expect(spec(req)).toEqual([]);
    expect(result.data).toEqual({ id: '77' });
  });

  test('a 200 carrying GraphQL errors is a failure with monday’s message, not retried', async () => {
    monday.fake.on('POST', '/v2', { body: { data: null, errors: [{ message: 'Board not found', extensions: { code: 'ResourceNotFoundException' } }] } });
    const err = await monday.fail('create_item', { boardId: 1, itemName: 'x' });
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
    const result = await monday.run('add_update', { itemId: 9001, body: 'x' });
    expect(result.attempts).toBe(2);
    expect(monday.sleeps).toEqual([3000]);
  });

  test('the schema check itself catches a field monday does not have', () => {
    const problems = spec({ method: 'POST', path: '/v2', query: {}, headers: {}, rawBody: '', body: { query: 'mutation { create_item(board_id: 1, item_name: "x", colour: "red") { id } }' } });
    expect(problems.join('\n')).toContain('Unknown argument "colour"');
  });
});
