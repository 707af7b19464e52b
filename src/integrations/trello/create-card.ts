import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const trelloId = z.string().regex(/^[0-9a-f]{24}$/, 'a Trello id is 24 hex characters');

const input = z.object({
  idList: trelloId.describe('List the card is added to'),
  name: z.string().min(1).max(16384).describe('Card title'),
  desc: z.string().max(16384).optional().describe('Card description (Markdown)'),
  due: z.iso.datetime({ offset: true }).optional().describe('Due date (ISO 8601)'),
  pos: z
    .union([z.enum(['top', 'bottom']), z.number().positive()])
    .optional()
    .describe('Position in the list: top, bottom or a number'),
  idLabels: z.array(trelloId).optional().describe('Label ids'),
  idMembers: z.array(trelloId).optional().describe('Member ids'),
});

const output = z.object({ id: z.string().describe('Card id'), shortUrl: z.string().optional(), url: z.string().optional() });

/** Creates a card on a list (`POST /cards`; Trello takes the card's fields as query parameters). */
export const createCard = defineAction({
  key: 'create_card',
  title: 'Create a card',
  input,
  output,
  idempotent: false,
  docs: 'https://developer.atlassian.com/cloud/trello/rest/api-group-cards/#api-cards-post',
  async run(params, { http }) {
    const res = await http.request<{ id?: string; shortUrl?: string; url?: string }>({
      method: 'POST',
      path: '/cards',
      query: {
        idList: params.idList,
        name: params.name,
        desc: params.desc,
        due: params.due,
        pos: params.pos,
        idLabels: params.idLabels?.join(','),
        idMembers: params.idMembers?.join(','),
      },
    });
    if (!res.body.id) throw new VendorError('vendor_error_in_body', 'Trello answered without a card', false, res.status);
    return { id: res.body.id, shortUrl: res.body.shortUrl, url: res.body.url };
  },
});
