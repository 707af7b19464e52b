import { z } from 'zod';
import { defineAction } from '../define';
import { columnValues, mondayId } from './columns';
import { mondayGraphql } from './graphql';
import { CREATE_ITEM } from './operations';

const input = z.object({
  boardId: mondayId.describe('Board id'),
  itemName: z.string().min(1).max(255).describe('Item name'),
  groupId: z.string().min(1).optional().describe('Group id (topics); the board’s top group when omitted'),
  columnValues: columnValues.optional(),
  createLabelsIfMissing: z.boolean().optional().describe('Create missing status/dropdown labels'),
});

const output = z.object({ id: z.string().describe('Item id'), name: z.string(), url: z.string().optional() });

/** Creates an item on a board (GraphQL `create_item`; column values sent as a JSON string). */
export const createItem = defineAction({
  key: 'create_item',
  title: 'Create an item',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.monday.com/api-reference/reference/items#create-an-item',
  async run(params, { http }) {
    const data = await mondayGraphql<{ create_item: { id: string; name: string; url?: string } }>(http, CREATE_ITEM, {
      board: String(params.boardId),
      name: params.itemName,
      group: params.groupId,
      columns: params.columnValues ? JSON.stringify(params.columnValues) : undefined,
      createLabels: params.createLabelsIfMissing,
    });
    return { id: data.create_item.id, name: data.create_item.name, url: data.create_item.url };
  },
});
