import { z } from 'zod';
import { defineAction } from '../define';
import { columnValues, mondayId } from './columns';
import { mondayGraphql } from './graphql';
import { CHANGE_COLUMN_VALUES } from './operations';

const input = z.object({
  boardId: mondayId.describe('Board id'),
  itemId: mondayId.describe('Item id'),
  columnValues,
  createLabelsIfMissing: z.boolean().optional().describe('Create missing status/dropdown labels'),
});

const output = z.object({ id: z.string().describe('Item id'), name: z.string() });

/** Sets several columns of an item (GraphQL `change_multiple_column_values`). */
export const changeColumnValues = defineAction({
  key: 'change_column_values',
  title: 'Update item columns',
  input,
  output,
  idempotent: true,
  docs: 'https://developer.monday.com/api-reference/reference/columns#change-multiple-column-values',
  async run(params, { http }) {
    const data = await mondayGraphql<{ change_multiple_column_values: { id: string; name: string } }>(http, CHANGE_COLUMN_VALUES, {
      board: String(params.boardId),
      item: String(params.itemId),
      columns: JSON.stringify(params.columnValues),
      createLabels: params.createLabelsIfMissing,
    });
    return { id: data.change_multiple_column_values.id, name: data.change_multiple_column_values.name };
  },
});
