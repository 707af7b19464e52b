import { z } from 'zod';
import { defineAction } from '../define';
import { mondayId } from './columns';
import { mondayGraphql } from './graphql';
import { CREATE_UPDATE } from './operations';

const input = z.object({
  itemId: mondayId.describe('Item the update is posted on'),
  body: z.string().min(1).describe('Update text (HTML allowed)'),
});

const output = z.object({ id: z.string().describe('Update id') });

/** Posts an update (a comment) on an item (GraphQL `create_update`), e.g. a call summary. */
export const addUpdate = defineAction({
  key: 'add_update',
  title: 'Post an update on an item',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.monday.com/api-reference/reference/updates#create-an-update',
  async run(params, { http }) {
    const data = await mondayGraphql<{ create_update: { id: string } }>(http, CREATE_UPDATE, { item: String(params.itemId), body: params.body });
    return { id: data.create_update.id };
  },
});
