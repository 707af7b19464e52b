import type { IntegrationCases } from '../../helpers/action-cases';
import { graphqlSpec } from '../../helpers/graphql-spec';

const H = { authorization: 'eyJmonday', 'api-version': '2026-10', 'content-type': 'application/json' };
const COLUMNS = { status: { label: 'New lead' }, phone: { phone: '+15550100', countryShortName: 'US' } };

/** monday.com: GraphQL at /v2, the token bare, the API-Version header; validated against monday's SDL. */
export const monday: IntegrationCases = {
  integration: 'monday',
  connection: { kind: 'api_key', secrets: { api_key: 'eyJmonday' } },
  spec: { file: 'monday.json', validator: () => graphqlSpec('monday.json') },
  cases: [
    {
      action: 'create_item',
      params: { boardId: 1234567, itemName: 'Ada Caller', groupId: 'topics', columnValues: COLUMNS },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v2',
            headers: H,
            body: {
              query: expect.stringMatching(/create_item\(board_id: \$board, item_name: \$name, group_id: \$group, column_values: \$columns/),
              variables: { board: '1234567', name: 'Ada Caller', group: 'topics', columns: JSON.stringify(COLUMNS) },
            },
          },
          response: { body: { data: { create_item: { id: '9001', name: 'Ada Caller', url: 'https://acme.monday.com/boards/1/pulses/9001' } } } },
        },
      ],
      data: { id: '9001', name: 'Ada Caller', url: 'https://acme.monday.com/boards/1/pulses/9001' },
    },
    {
      action: 'change_column_values',
      params: {
        boardId: '1234567',
        itemId: '9001',
        columnValues: { text: 'budget' },
        customFields: [{ field: 'columnValues.text', customFieldEnabled: true }],
      },
      callData: { fields: { budget: '5k-10k' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v2',
            headers: H,
            body: {
              query: expect.stringContaining('change_multiple_column_values(board_id: $board, item_id: $item, column_values: $columns'),
              variables: { board: '1234567', item: '9001', columns: '{"text":"5k-10k"}' },
            },
          },
          response: { body: { data: { change_multiple_column_values: { id: '9001', name: 'Ada Caller' } } } },
        },
      ],
      data: { id: '9001', name: 'Ada Caller' },
    },
    {
      action: 'add_update',
      params: { itemId: 9001, body: 'Call summary: wants a demo.' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v2',
            headers: H,
            body: { query: expect.stringContaining('create_update('), variables: { item: '9001', body: 'Call summary: wants a demo.' } },
          },
          response: { body: { data: { create_update: { id: '77' } } } },
        },
      ],
      data: { id: '77' },
    },
  ],
};
